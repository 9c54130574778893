// The only randomness in the game: a generator whose every step is written down here, so the
// same seed deals the same tiles on any platform and with any standard library (std::shuffle and
// the std:: distributions are implementation-defined, so they are never used).
//
// - Generator: SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
//   OOPSLA 2014): state += 0x9E3779B97F4A7C15; z = state;
//   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
//   return z ^ (z >> 31).
// - Bounded draw in [0, n), n < 2^32: Lemire's multiply-shift with rejection ("Fast random
//   integer generation in an interval", 2019) on the high 32 bits x of one output:
//   m = x * n (64-bit); if (m mod 2^32) < (2^32 - n) mod n, draw again; else return m >> 32.
//   Unbiased.
// - Shuffle: Fisher-Yates from the back: for i = size-1 down to 1, j = bounded(i+1), swap(a[i],
// a[j]).
#pragma once

#include <cstdint>
#include <span>
#include <utility>

namespace bg {

class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    // Uniform in [0, n); requires 0 < n < 2^32.
    std::uint32_t bounded(std::uint32_t n) {
        const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
        for (;;) {
            const std::uint64_t m = (next() >> 32) * std::uint64_t{n};
            if (static_cast<std::uint32_t>(m) >= threshold)
                return static_cast<std::uint32_t>(m >> 32);
        }
    }

    template <class T>
    void shuffle(std::span<T> items) {
        for (std::size_t i = items.size(); i > 1; --i) {
            const std::size_t j = bounded(static_cast<std::uint32_t>(i));
            std::swap(items[i - 1], items[j]);
        }
    }

    std::uint64_t state() const { return state_; }

  private:
    std::uint64_t state_;
};

}  // namespace bg
