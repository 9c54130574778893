// Wrong tokens and codes, counted by the address they came from (the door's, arena/door.hpp):
// past `per_minute` of them in the last minute, every connection from that address is refused
// before its token or code is looked up, unless that token or code was let in from there before
// (a guesser behind a NAT or a proxy does not lock out those who connect from it, and cannot
// guess faster). What it keeps is bounded, whatever an attacker's count of addresses.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "remote/gate.hpp"

namespace bg::arena {

class Guesses {
  public:
    using Refusal = remote::Gate::Refusal;
    Guesses(std::function<std::uint64_t()> now_ms, int per_minute)
        : now_ms_(std::move(now_ms)), per_minute_(per_minute) {}

    // Why a connection from `peer` offering the token or code of digest `digest` ("" none) is
    // refused before it is looked up, or none.
    std::optional<Refusal> limit(std::string_view peer, const std::string& digest);
    // A wrong token or code from `peer`, counted: `refusal` back.
    Refusal failed(std::string_view peer, Refusal refusal);
    // The token or code of digest `digest` let in from `peer`.
    void remember(std::string_view peer, const std::string& digest);

  private:
    std::function<std::uint64_t()> now_ms_;
    int per_minute_;
    // By address: the times of its wrong tokens and codes in the last minute.
    std::map<std::string, std::deque<std::uint64_t>, std::less<>> failures_;
    // By address: the tokens and codes let in from there (their digests, each with when it was
    // last), which its failures do not lock out.
    struct Known {
        std::map<std::string, std::uint64_t> digests;
        std::uint64_t last = 0;
    };
    std::map<std::string, Known, std::less<>> known_;
};

}  // namespace bg::arena
