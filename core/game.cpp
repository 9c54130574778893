#include "core/game.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/grid.hpp"
#include "core/judge.hpp"
#include "core/text.hpp"

namespace bg {

namespace {

constexpr std::size_t dump_needs = 3;

}  // namespace

std::string_view to_string(End end) {
    switch (end) {
        case End::bananas:
            return "bananas";
        case End::last_player_standing:
            return "last_player_standing";
        case End::everyone_out:
            return "everyone_out";
        case End::game_timeout:
            return "game_timeout";
        case End::aborted:
            return "aborted";
        case End::stalled:
            return "stalled";
    }
    return "?";
}

std::optional<End> end_from_string(std::string_view text) {
    for (End end : {End::bananas, End::last_player_standing, End::everyone_out, End::game_timeout,
                    End::aborted, End::stalled})
        if (to_string(end) == text)
            return end;
    return std::nullopt;
}

std::optional<Game> Game::create(const RulesConfig& config, const Dictionary& dictionary,
                                 std::string* error) {
    const auto rules = tile_rules_for(config.players, config.sets, error);
    if (!rules)
        return std::nullopt;
    if (config.continuing.size() > static_cast<std::size_t>(config.players)) {
        *error = "more continuing players than players";
        return std::nullopt;
    }
    for (const auto& continuing : config.continuing)
        if (continuing &&
            (!stays_for_match(continuing->version) ||
             continuing->version > config.newest_protocol || continuing->process_game < 2)) {
            *error = fmt::format("a player cannot continue in v{:03} as its process's game {}",
                                 continuing->version, continuing->process_game);
            return std::nullopt;
        }
    return Game(config, *rules, dictionary);
}

Game::Game(const RulesConfig& config, const TileRules& rules, const Dictionary& dictionary)
    : config_(config),
      rules_(rules),
      dictionary_(&dictionary),
      rng_(config.seed),
      players_(static_cast<std::size_t>(config.players)) {
    const std::string tiles = rules_.tiles().to_string();
    bunch_.assign(tiles.begin(), tiles.end());
    rng_.shuffle(std::span(bunch_));
    for (std::size_t i = 0; i < config.continuing.size(); ++i)
        if (const auto& continuing = config.continuing[i]) {
            players_[i].version = continuing->version;
            players_[i].process_game = continuing->process_game;
        }
}

std::vector<Decision> Game::handle(const Input& input) {
    Decisions out;
    if (over())
        return out;
    if (within_limits(input, out))
        std::visit([&](const auto& event) { on(event, out); }, input);
    return out;
}

bool Game::within_limits(const Input& input, Decisions& out) {
    PlayerId id = -1;
    std::size_t grid_bytes = 0;
    if (const auto* peel = std::get_if<input::Peel>(&input)) {
        id = peel->player;
        grid_bytes = peel->grid.size();
    } else if (const auto* dump = std::get_if<input::Dump>(&input)) {
        id = dump->player;
    } else if (const auto* ready = std::get_if<input::Ready>(&input)) {
        id = ready->player;
    } else if (const auto* hello = std::get_if<input::Hello>(&input)) {
        id = hello->player;
    }
    if (!valid_player(id))
        return true;  // not a player's message, or one the rules ignore
    auto& player = players_[id];
    player.grid_bytes += grid_bytes;
    if (++player.messages > max_messages_per_player) {
        disqualify(id, OutCode::flooded,
                   fmt::format("flooded the host: more than {} messages (the limit for a game)",
                               max_messages_per_player),
                   out);
        return false;
    }
    if (player.grid_bytes > max_grid_bytes_per_player) {
        disqualify(id, OutCode::flooded,
                   fmt::format("flooded the host: more than {} MiB of peel grids (the limit for "
                               "a game)",
                               max_grid_bytes_per_player >> 20),
                   out);
        return false;
    }
    return true;
}

std::vector<int> Game::standings() const {
    std::vector<int> ranks(players_.size(), 0);
    for (std::size_t i = 0; i < players_.size(); ++i) {
        if (players_[i].phase == PlayerState::Phase::out)
            continue;
        const auto tiles = players_[i].hand.total();
        int ahead = 0;
        for (std::size_t j = 0; j < players_.size(); ++j) {
            if (j == i || players_[j].phase == PlayerState::Phase::out)
                continue;
            if (winner_ == static_cast<PlayerId>(j) ||
                (winner_ != static_cast<PlayerId>(i) && players_[j].hand.total() < tiles))
                ++ahead;
        }
        ranks[i] = ahead + 1;
    }
    return ranks;
}

LetterCounts Game::tiles_in_play() const {
    LetterCounts all;
    for (char tile : bunch_)
        all.add(tile);
    for (const auto& player : players_)
        all += player.hand;
    return all;
}

char Game::draw() {
    const char tile = bunch_.back();
    bunch_.pop_back();
    return tile;
}

// A returned tile goes to a random place in the bunch, as it would in the real game.
void Game::put_back(char tile) {
    const auto at = rng_.bounded(static_cast<std::uint32_t>(bunch_.size() + 1));
    bunch_.insert(bunch_.begin() + at, tile);
}

int Game::players_in() const {
    return static_cast<int>(std::count_if(players_.begin(), players_.end(), [](const auto& p) {
        return p.phase != PlayerState::Phase::out;
    }));
}

bool Game::valid_player(PlayerId player) const {
    return player >= 0 && player < static_cast<int>(players_.size()) &&
           players_[player].phase != PlayerState::Phase::out;
}

void Game::on(const input::Hello& hello, Decisions& out) {
    if (!valid_player(hello.player))
        return;
    auto& player = players_[hello.player];
    if (player.process_game > 1)
        return disqualify(hello.player, OutCode::protocol_error,
                          fmt::format("protocol error: a second handshake (its process said v{:03} "
                                      "in its first game)",
                                      player.version),
                          out);
    if (player.phase != PlayerState::Phase::joining || player.version != protocol_legacy)
        return disqualify(hello.player, OutCode::protocol_error,
                          "protocol error: a v2 handshake after its first message", out);
    // It speaks v2 from its "v" on: even a version the host refuses is answered in v2 (with E,
    // whose form every version shares). Otherwise it is answered as answered_version() says.
    player.version = answered_version(hello.version, config_.newest_protocol);
    if (hello.version < protocol_v2)
        return disqualify(hello.player, OutCode::protocol_error,
                          fmt::format("protocol error: handshake v{:03} asks for a version before "
                                      "2 (legacy players start with r instead)",
                                      hello.version),
                          out);
    out.push_back(decision::Greeted{hello.player, player.version});
}

void Game::on(const input::Ready& ready, Decisions& out) {
    if (!valid_player(ready.player))
        return;
    auto& player = players_[ready.player];
    if (player.phase != PlayerState::Phase::joining)
        return disqualify(
            ready.player, OutCode::protocol_error,
            fmt::format("protocol error: sent {} a second time", message_name(ready.player, 'r')),
            out);
    player.phase = PlayerState::Phase::ready;
    // The last player left, now that it is ready, has won; it could not win before.
    end_if_decided(out);
    deal_if_all_ready(out);
}

std::string Game::message_name(PlayerId id, char legacy) const {
    const bool v2 = sequenced(players_[id].version);
    const char letter = v2 ? static_cast<char>(legacy - 'a' + 'A') : legacy;
    switch (legacy) {
        case 'r':
            return fmt::format("{} (ready)", letter);
        case 'p':
            return fmt::format("{} (peel)", letter);
        default:
            return fmt::format("{} (dump)", letter);
    }
}

bool Game::may_move(PlayerId id, char move, Decisions& out) {
    if (!valid_player(id))
        return false;
    if (players_[id].phase == PlayerState::Phase::playing)
        return true;
    // Its process's game before may have sent it before it read that game's E: ignored.
    if (players_[id].phase == PlayerState::Phase::joining && players_[id].process_game > 1)
        return false;
    disqualify(
        id, OutCode::protocol_error,
        fmt::format("protocol error: sent {} before its hand was dealt{}", message_name(id, move),
                    players_[id].phase == PlayerState::Phase::joining
                        ? fmt::format(" (and before {})", message_name(id, 'r').substr(0, 1))
                        : ""),
        out);
    return false;
}

// The hand a peel's grid is judged against: the player's, or, for a grid that raced tiles it
// could not have read, its hand less the newest of them.
struct Game::JudgedHand {
    LetterCounts hand;
    std::size_t lacking = 0;  // the newest unread tiles it lacks
    int reflects = 0;         // the peel number the hand is as of
};

void Game::on(const input::Peel& peel, Decisions& out) {
    if (!may_move(peel.player, 'p', out))
        return;
    auto& player = players_[peel.player];
    auto parsed = parse_grid(peel.grid, config_.byte_names);
    if (const auto* error = std::get_if<GridError>(&parsed))
        return disqualify(peel.player, OutCode::illegal_peel, "illegal peel: " + error->message,
                          out);
    if (!may_reflect(peel, out))
        return;
    const Grid& grid = std::get<Grid>(parsed);
    const GridTiles tiles = tiles_on(grid);
    const JudgedHand judged = judged_hand(player, tiles.letters, peel.reflects);
    const Verdict verdict = judge(grid, tiles, judged.hand, *dictionary_);
    if (!verdict.legal()) {
        return disqualify(peel.player, OutCode::illegal_peel,
                          fmt::format("illegal peel: {}{}", verdict.message,
                                      judged.lacking ? fmt::format(" (judged against its hand as "
                                                                   "of peel {:04})",
                                                                   judged.reflects)
                                                     : ""),
                          out);
    }
    if (judged.lacking > 0) {
        const auto& unread = player.unread;
        std::string lacked;
        for (std::size_t k = unread.size() - judged.lacking; k < unread.size(); ++k)
            lacked += unread[k].tile;
        out.push_back(
            decision::PeelStale{peel.player, std::move(lacked), judged.reflects, peel_number_});
        return;
    }
    accept_peel(peel.player, peel.grid, out);
}

bool Game::may_reflect(const input::Peel& peel, Decisions& out) {
    if (!peel.reflects)
        return true;
    auto& player = players_[peel.player];
    const int n = *peel.reflects;
    if (n > peel_number_) {
        disqualify(peel.player, OutCode::protocol_error,
                   fmt::format("protocol error: its peel says it reflects peel {:04}, which is "
                               "from the future (the newest is {:04})",
                               n, peel_number_),
                   out);
        return false;
    }
    if (n < player.seen) {
        disqualify(peel.player, OutCode::protocol_error,
                   fmt::format("protocol error: its peel says it reflects peel {:04}, older than "
                               "peel {:04}, which its earlier peels showed it had seen",
                               n, player.seen),
                   out);
        return false;
    }
    player.seen = n;
    return true;
}

// A grid holding the hand less the newest tiles sent since the player's last accepted peel (by
// peels or dumps) reflects a hand it really had: it raced tiles it could not have read. It is
// judged against that hand. A legacy peel is taken at its tiles' word; a v2 peel may lack only
// tiles sent after the last peel tile it says it has.
Game::JudgedHand Game::judged_hand(const PlayerState& player, const LetterCounts& on_grid,
                                   std::optional<int> reflects) const {
    const auto& unread = player.unread;
    JudgedHand judged{player.hand, 0, peel_number_};
    if (on_grid == player.hand)
        return judged;
    std::size_t most = unread.size();
    if (reflects) {
        const auto read = std::find_if(unread.rbegin(), unread.rend(), [&](const auto& u) {
            return !u.dump && u.number <= *reflects;
        });
        most = static_cast<std::size_t>(read - unread.rbegin());
    }
    LetterCounts hand = player.hand;
    for (std::size_t k = 1; k <= most; ++k) {
        if (!hand.remove(unread[unread.size() - k].tile))
            break;  // dumped since: not a race
        if (on_grid == hand || (reflects && k == most)) {
            judged.lacking = k;
            judged.hand = hand;
        }
        if (on_grid == hand)
            break;
    }
    // The hand it is judged against is as of the peel before the oldest tile lacked (a dump's
    // tiles came after the peel they are numbered with).
    if (judged.lacking > 0) {
        const auto& oldest = unread[unread.size() - judged.lacking];
        judged.reflects = oldest.dump ? oldest.number : oldest.number - 1;
    }
    return judged;
}

void Game::accept_peel(PlayerId id, const std::string& grid, Decisions& out) {
    auto& player = players_[id];
    // An accepted grid holds every tile sent before it: nothing before now is unread.
    player.unread.clear();
    ++player.peels;
    player.grid = grid;
    const int number = ++peel_number_;
    // Its grid held every tile before this peel; this peel's own tile may still be unread.
    player.seen = std::max(player.seen, number - 1);
    if (static_cast<int>(bunch_.size()) < players_in()) {
        out.push_back(decision::PeelAccepted{id, number, std::string(players_.size(), '.'),
                                             static_cast<int>(bunch_.size())});
        return finish(End::bananas, id, out);
    }
    std::string dealt(players_.size(), '.');
    for (std::size_t i = 0; i < players_.size(); ++i) {
        auto& p = players_[i];
        if (p.phase != PlayerState::Phase::playing)
            continue;
        dealt[i] = draw();
        p.hand.add(dealt[i]);
        p.unread.push_back({dealt[i], number, false});
    }
    out.push_back(decision::PeelAccepted{id, number, dealt, static_cast<int>(bunch_.size())});
}

void Game::on(const input::Dump& dump, Decisions& out) {
    if (!may_move(dump.player, 'd', out))
        return;
    auto& player = players_[dump.player];
    if (!is_tile_letter(dump.letter))
        return disqualify(
            dump.player, OutCode::protocol_error,
            fmt::format("protocol error: dump letter {} is not A-Z", quote_byte(dump.letter)), out);
    if (player.hand.count(dump.letter) == 0)
        return disqualify(dump.player, OutCode::illegal_dump,
                          fmt::format("illegal dump: {} is not in its hand", dump.letter), out);
    if (bunch_.size() < dump_needs) {
        // Refused, its tile stays: sent back, as unread as a dump's three until a grid holds it.
        player.unread.push_back({dump.letter, peel_number_, true});
        out.push_back(
            decision::DumpRefused{dump.player, dump.letter, static_cast<int>(bunch_.size())});
        return;
    }
    player.hand.remove(dump.letter);
    put_back(dump.letter);
    LetterCounts drawn;
    for (std::size_t i = 0; i < dump_needs; ++i)
        drawn.add(draw());
    player.hand += drawn;
    ++player.dumps;
    // Its three tiles are unread until a grid holds them, as a peel's tiles are: a peel sent
    // before it read them is stale, never "not the hand".
    std::string tiles = drawn.to_string();
    for (char tile : tiles)
        player.unread.push_back({tile, peel_number_, true});
    out.push_back(decision::Dumped{dump.player, dump.letter, std::move(tiles)});
}

void Game::on(const input::Violation& violation, Decisions& out) {
    if (!valid_player(violation.player))
        return;
    disqualify(violation.player, OutCode::protocol_error, "protocol error: " + violation.reason,
               out);
}

void Game::on(const input::Gone& gone, Decisions& out) {
    if (!valid_player(gone.player))
        return;
    disqualify(gone.player, gone.code, gone.reason, out);
}

// Everyone not ready is out at once: the order of seats decides nothing, and a player that
// never said r never wins.
void Game::on(const input::ReadyTimeout&, Decisions& out) {
    if (dealt_)
        return;
    for (std::size_t i = 0; i < players_.size(); ++i)
        if (players_[i].phase == PlayerState::Phase::joining)
            put_out(static_cast<PlayerId>(i), OutCode::not_ready,
                    players_[i].process_game > 1
                        ? "not ready (no R after G, the next game's start) before the ready timeout"
                    : sequenced(players_[i].version)
                        ? "not ready (no R after its handshake) before the ready timeout"
                        : "not ready (no r, nor v002R in v2) before the ready timeout",
                    out);
    end_if_decided(out);
    deal_if_all_ready(out);
}

void Game::on(const input::GameTimeout&, Decisions& out) {
    finish_by_fewest_tiles(End::game_timeout, out);
}

// Only a game dealt whose bunch cannot serve a dump can stall: otherwise it changes nothing.
void Game::on(const input::StallTimeout&, Decisions& out) {
    if (dealt_ && !bunch_serves_dumps())
        finish_by_fewest_tiles(End::stalled, out);
}

bool Game::bunch_serves_dumps() const {
    return bunch_.size() >= dump_needs;
}

void Game::finish_by_fewest_tiles(End end, Decisions& out) {
    // Fewest tiles in hand wins; a tie for fewest has no winner.
    std::optional<PlayerId> best;
    bool tie = false;
    for (std::size_t i = 0; i < players_.size(); ++i) {
        if (!dealt_ || players_[i].phase == PlayerState::Phase::out)
            continue;
        const auto tiles = players_[i].hand.total();
        if (!best || tiles < players_[*best].hand.total()) {
            best = static_cast<PlayerId>(i);
            tie = false;
        } else if (tiles == players_[*best].hand.total()) {
            tie = true;
        }
    }
    finish(end, tie ? std::nullopt : best, out);
}

void Game::on(const input::Abort&, Decisions& out) {
    finish(End::aborted, std::nullopt, out);
}

void Game::disqualify(PlayerId id, OutCode code, std::string reason, Decisions& out) {
    put_out(id, code, std::move(reason), out);
    end_if_decided(out);
    deal_if_all_ready(out);
}

void Game::put_out(PlayerId id, OutCode code, std::string reason, Decisions& out) {
    auto& player = players_[id];
    player.phase = PlayerState::Phase::out;
    player.reason = reason;
    player.out_code = code;
    player.unread.clear();
    const std::string tiles = player.hand.to_string();
    player.hand = {};
    for (char tile : tiles)
        put_back(tile);
    out.push_back(decision::Disqualified{id, code, std::move(reason)});
}

void Game::deal_if_all_ready(Decisions& out) {
    if (dealt_ || over())
        return;
    for (const auto& player : players_)
        if (player.phase == PlayerState::Phase::joining)
            return;
    deal_hands(out);
}

void Game::deal_hands(Decisions& out) {
    dealt_ = true;
    decision::HandsDealt hands;
    for (auto& player : players_) {
        if (player.phase != PlayerState::Phase::ready) {
            hands.hands.emplace_back();
            continue;
        }
        player.phase = PlayerState::Phase::playing;
        for (int i = 0; i < rules_.hand_size; ++i)
            player.hand.add(draw());
        hands.hands.push_back(player.hand.to_string());
    }
    out.push_back(std::move(hands));
}

// One player left of several wins, once it has said r: before that it has not shown it can
// play at all, and waits for its r or the ready timeout.
void Game::end_if_decided(Decisions& out) {
    if (over())
        return;
    const int in = players_in();
    if (in == 0)
        return finish(End::everyone_out, std::nullopt, out);
    if (in == 1 && players_.size() > 1) {
        const auto it = std::find_if(players_.begin(), players_.end(), [](const auto& p) {
            return p.phase != PlayerState::Phase::out;
        });
        if (it->phase == PlayerState::Phase::joining)
            return;
        finish(End::last_player_standing, static_cast<PlayerId>(it - players_.begin()), out);
    }
}

void Game::finish(End end, std::optional<PlayerId> winner, Decisions& out) {
    end_ = end;
    winner_ = winner;
    out.push_back(decision::GameOver{end, winner});
}

}  // namespace bg
