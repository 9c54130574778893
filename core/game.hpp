// The referee's decisions: a pure state machine. handle() takes one input and returns the
// decisions it leads to, already applied; the same inputs in the same order always give the
// same decisions, so a log of inputs replays to the same game.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/dictionary.hpp"
#include "core/events.hpp"
#include "core/letters.hpp"
#include "core/random.hpp"
#include "core/text.hpp"
#include "core/tiles.hpp"

namespace bg {

// What one player may send in a game. A player past either limit is out for flooding: they
// bound the event log, which records every message (docs/host.md, "The event log"), and the host's
// live lines. An honest bot stays far below both (docs/security.md).
inline constexpr int max_messages_per_player = 10'000;
inline constexpr std::size_t max_grid_bytes_per_player = std::size_t{64} << 20;

// A player whose process stays from an earlier game of its match (protocol v004): the version it
// speaks, answered in that process's first game, and which game of its process this is.
struct Continuing {
    int version = protocol_v4;
    int process_game = 2;  // 2 or more: 1 is a process started for the game
    friend bool operator==(const Continuing&, const Continuing&) = default;
};

struct RulesConfig {
    std::uint64_t seed = 0;
    int players = 2;
    int sets = 1;  // requested; more are used when the players need them (tile_rules_for)
    // The newest protocol version the host speaks: a player asking for a later one is answered
    // in it. A replayed log's host may have known fewer (record/setup.hpp).
    int newest_protocol = protocol_newest;
    // The players whose process stays from an earlier game (none: every player was started
    // for this one). Such a player has said its handshake in its process's first game: it is
    // sent G, answers R, and any P or D of the game before that reaches this one is ignored.
    std::vector<std::optional<Continuing>> continuing = {};
    // How reasons name a byte that is not a printable character (core/text.hpp): a replayed
    // log's host may have named them by their codes alone.
    ByteNames byte_names = ByteNames::words;
};

struct PlayerState {
    enum class Phase { joining, ready, playing, out };
    Phase phase = Phase::joining;
    int version = protocol_legacy;  // the version it speaks once it said hello in v2 (or v3)
    int process_game = 1;           // which game of its process this is (RulesConfig::continuing)
    LetterCounts hand;
    std::optional<std::string> grid;  // the last accepted grid
    int peels = 0;
    int dumps = 0;
    int messages = 0;                   // handshake, ready, peels and dumps it has sent
    std::size_t grid_bytes = 0;         // the bytes of all its peels' grids
    std::string reason;                 // why it is out, in words
    OutCode out_code = OutCode::other;  // and as a code
    // A tile sent to it since its last accepted peel: what a racing peel may not have seen yet.
    struct Unread {
        char tile = 0;
        int number = 0;     // the peel that dealt it, or for a dump's tile the newest peel then
        bool dump = false;  // one of a dump's three, or a refused dump's own tile back
        friend bool operator==(const Unread&, const Unread&) = default;
    };
    // The tiles sent to it by peels and dumps since its last accepted peel, oldest first. Only
    // an accepted grid proves which tiles a player has read; any later message may have been
    // sent before them.
    std::vector<Unread> unread;
    // The newest peel its own messages prove it has seen: the number its last v2 peel stated,
    // or the one before its last accepted peel. A v2 peel may not go back on it. (A NAK proves
    // nothing: it may not have been read yet.)
    int seen = 0;
};

class Game {
  public:
    // nullopt, with the reason in `error`, for a player count or set count out of range.
    static std::optional<Game> create(const RulesConfig& config, const Dictionary& dictionary,
                                      std::string* error);

    std::vector<Decision> handle(const Input& input);

    const RulesConfig& config() const { return config_; }
    const TileRules& rules() const { return rules_; }
    const std::vector<PlayerState>& players() const { return players_; }
    std::size_t bunch_size() const { return bunch_.size(); }
    // Whether a dump could be served now: the bunch holds at least three tiles.
    bool bunch_serves_dumps() const;
    int peel_number() const { return peel_number_; }
    bool dealt() const { return dealt_; }
    bool over() const { return end_.has_value(); }
    std::optional<End> end() const { return end_; }
    std::optional<PlayerId> winner() const { return winner_; }
    // Each player's final standing: 1 for the winner, then by fewest tiles held (a tie shares a
    // rank); 0 for a player out.
    std::vector<int> standings() const;
    // Every tile of the game: the bunch plus every hand still in play.
    LetterCounts tiles_in_play() const;

  private:
    Game(const RulesConfig& config, const TileRules& rules, const Dictionary& dictionary);

    using Decisions = std::vector<Decision>;
    void on(const input::Hello& hello, Decisions& out);
    void on(const input::Ready& ready, Decisions& out);
    void on(const input::Peel& peel, Decisions& out);
    void on(const input::Dump& dump, Decisions& out);
    void on(const input::Violation& violation, Decisions& out);
    void on(const input::Gone& gone, Decisions& out);
    void on(const input::ReadyTimeout&, Decisions& out);
    void on(const input::GameTimeout&, Decisions& out);
    void on(const input::StallTimeout&, Decisions& out);
    void on(const input::Abort&, Decisions& out);

    // False, after disqualifying the player, when this message takes it past its limits.
    bool within_limits(const Input& input, Decisions& out);
    // False, after disqualifying the player, when it may not move now.
    bool may_move(PlayerId player, char move, Decisions& out);
    // A peel's parts: whether the peel number it says it reflects may be (false, after
    // disqualifying the player, when not); the hand its grid is judged against; its acceptance.
    bool may_reflect(const input::Peel& peel, Decisions& out);
    struct JudgedHand;
    JudgedHand judged_hand(const PlayerState& player, const LetterCounts& on_grid,
                           std::optional<int> reflects) const;
    void accept_peel(PlayerId id, const std::string& grid, Decisions& out);
    // A message as the player's protocol spells it: 'r' is "r (ready)" to a legacy player,
    // "R (ready)" to a v2 one.
    std::string message_name(PlayerId player, char legacy) const;
    void disqualify(PlayerId player, OutCode code, std::string reason, Decisions& out);
    // Out, its tiles back in the bunch; whether that ends the game is for the caller to see.
    void put_out(PlayerId player, OutCode code, std::string reason, Decisions& out);
    void deal_hands(Decisions& out);
    void deal_if_all_ready(Decisions& out);
    void end_if_decided(Decisions& out);
    void finish(End end, std::optional<PlayerId> winner, Decisions& out);
    // Ends the game as `end`, won by the player holding the fewest tiles (a tie: nobody).
    void finish_by_fewest_tiles(End end, Decisions& out);
    char draw();
    void put_back(char tile);
    int players_in() const;
    bool valid_player(PlayerId player) const;

    RulesConfig config_;
    TileRules rules_;
    const Dictionary* dictionary_;
    SplitMix64 rng_;
    std::vector<char> bunch_;  // drawn from the back
    std::vector<PlayerState> players_;
    int peel_number_ = 0;
    bool dealt_ = false;
    std::optional<End> end_;
    std::optional<PlayerId> winner_;
};

}  // namespace bg
