// The seats of a run's players, remote ones among them: a remote seat (remote_seat.hpp), taken
// at the desk, for a command `remote:TOKEN`; any other from the source behind it (the venue's
// processes). What the host, the tournament and the checker seat their players from.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "match/seat_source.hpp"
#include "remote/remote_seat.hpp"

namespace bg::remote {

class Desk;

class Seats final : public SeatSource {
  public:
    // `commands`: every command a request may name (the venue's, in its order, tokens
    // included); `desk`: where remote seats are taken (none: there are none).
    Seats(std::vector<std::string> commands, Desk* desk, RemoteSeat::Options options,
          const SeatSource& others);
    std::unique_ptr<Seat> seat(const Request& request) const override;
    bool one_game_at_a_time(int command) const override;

  private:
    std::vector<std::string> commands_;
    Desk* desk_;
    RemoteSeat::Options options_;
    const SeatSource& others_;
};

}  // namespace bg::remote
