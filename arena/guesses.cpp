#include "arena/guesses.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace bg::arena {

namespace {

constexpr std::uint64_t minute_ms = 60'000;

}  // namespace

// Addresses whose failures are all older than a minute are forgotten.
std::optional<Guesses::Refusal> Guesses::limit(std::string_view peer, const std::string& digest) {
    const std::uint64_t now = now_ms_();
    const auto found = failures_.find(peer);
    if (found == failures_.end())
        return std::nullopt;
    auto& times = found->second;
    while (!times.empty() && times.front() + minute_ms <= now)
        times.pop_front();
    if (times.empty()) {
        failures_.erase(found);
        return std::nullopt;
    }
    if (static_cast<int>(times.size()) < per_minute_)
        return std::nullopt;
    if (const auto known = known_.find(peer);
        !digest.empty() && known != known_.end() && known->second.digests.count(digest))
        return std::nullopt;
    return Refusal{429,
                   fmt::format("{} wrong tokens or codes from this address in the last minute: "
                               "try again later",
                               times.size()),
                   static_cast<int>((times.front() + minute_ms - now + 999) / 1000),
                   "address-failures"};
}

// A token or code let in from an address. Bounded as the failures are: past `tokens_kept` an
// address's oldest is forgotten, past `addresses_kept` the address least recently used.
void Guesses::remember(std::string_view peer, const std::string& digest) {
    constexpr std::size_t tokens_kept = 256, addresses_kept = 10'000;
    const std::uint64_t now = now_ms_();
    auto found = known_.find(peer);
    if (found == known_.end()) {
        if (known_.size() >= addresses_kept)
            known_.erase(std::min_element(
                known_.begin(), known_.end(),
                [](const auto& a, const auto& b) { return a.second.last < b.second.last; }));
        found = known_.emplace(std::string(peer), Known{}).first;
    }
    Known& known = found->second;
    known.last = now;
    known.digests[digest] = now;
    if (known.digests.size() > tokens_kept)
        known.digests.erase(
            std::min_element(known.digests.begin(), known.digests.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; }));
}

// A wrong token or code, counted against its address. The addresses kept are bounded: past
// `addresses_kept`, those with no failure in the last minute are forgotten, and then, if need
// be, one with failures (a memory an attacker with more addresses than that cannot grow).
Guesses::Refusal Guesses::failed(std::string_view peer, Refusal refusal) {
    constexpr std::size_t addresses_kept = 10'000;
    const std::uint64_t now = now_ms_();
    if (failures_.size() >= addresses_kept && !failures_.count(peer)) {
        std::erase_if(failures_, [now](const auto& kept) {
            return kept.second.empty() || kept.second.back() + minute_ms <= now;
        });
        if (failures_.size() >= addresses_kept)
            failures_.erase(failures_.begin());
    }
    auto& times = failures_[std::string(peer)];
    times.push_back(now);
    while (static_cast<int>(times.size()) > per_minute_)
        times.pop_front();
    return refusal;
}

}  // namespace bg::arena
