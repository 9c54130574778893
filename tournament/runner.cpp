#include "tournament/runner.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "core/text.hpp"
#include "record/game_files.hpp"
#include "record/json_value.hpp"
#include "remote/token.hpp"
#include "viewer/pages.hpp"

namespace bg::tournament {

namespace {

// How soon a game that found no free cores looks again.
constexpr std::uint64_t retry_ms = 250;
// How many deals ahead a lane looks for a game that its kept players have not seen a rotation
// of: they play that many deals' first rotations, then are started afresh for the next
// rotations, so that complete sets of rotations still finish every few games.
constexpr int lookahead_deals = 16;

}  // namespace

// A lane: it plays one game at a time, the games of one table in a row.
struct Runner::Lane {
    FixtureRecord row;
    std::vector<int> bots;  // its table's bots' ids, sorted: a game with these seats is its table's
    std::unique_ptr<Table> table;
    std::unique_ptr<GameFiles> files;
    std::optional<Table::Ended> ended;  // its game's, once over
    std::uint64_t started_ms = 0;
    // No game of it is under way or waiting to be recorded (its files are the game's, from its
    // start until the reaper has recorded it).
    bool idle() const { return !files; }
};

namespace {

// The bots of a game's table: its seats' bots, sorted.
std::vector<int> bots_of(const Fixture& game) {
    std::vector<int> bots = game.seats;
    std::sort(bots.begin(), bots.end());
    return bots;
}

// The table's slot of each seat of a game (a bot twice in a game: two slots).
std::vector<int> slots_of(const std::vector<int>& bots, const std::vector<int>& seats) {
    std::vector<int> slots;
    std::vector<bool> taken(bots.size());
    for (const int bot : seats)
        for (std::size_t i = 0; i < bots.size(); ++i)
            if (bots[i] == bot && !taken[i]) {
                taken[i] = true;
                slots.push_back(static_cast<int>(i));
                break;
            }
    return slots;
}

}  // namespace

std::optional<std::string> replay_page(const FixtureRecord& row) {
    if (!row.played || row.played->log.empty())
        return std::nullopt;
    const std::string& log_path = row.played->log;
    std::ifstream log(log_path, std::ios::binary);
    auto records = viewer::read_records(log);
    auto* read = std::get_if<std::vector<nlohmann::json>>(&records);
    if (!read)
        return std::nullopt;
    std::vector<std::string> player_stderr;
    for (std::size_t seat = 0; seat < row.game.seats.size(); ++seat) {
        std::ifstream kept(player_stderr_path(log_path, static_cast<int>(seat)), std::ios::binary);
        player_stderr.emplace_back(std::istreambuf_iterator<char>(kept),
                                   std::istreambuf_iterator<char>());
    }
    return viewer::game_page(*read, player_stderr);
}

Runner::Runner(uv_loop_t* loop, Database& database, std::vector<FixtureRecord> pending,
               Options options)
    : loop_(loop),
      database_(database),
      pending_(pending.begin(), pending.end()),
      options_(std::move(options)),
      reaper_(loop, [this] { reap(); }),
      retry_(loop, [this] {
          // Never a lane whose game is over but not yet recorded: the reaper starts its next.
          for (auto& lane : lanes_)
              if (lane->idle())
                  start_next(*lane);
          finish_if_idle();
      }) {}

Runner::~Runner() = default;

void Runner::note(const std::string& what) {
    for (const auto& lane : lanes_)
        if (lane->table)
            lane->table->note(what);
}

int Runner::running() const {
    int n = 0;
    for (const auto& lane : lanes_)
        n += lane->table && lane->table->playing();
    return n;
}

void Runner::start() {
    const int lanes = std::max(1, options_.concurrency);
    for (int i = 0; i < lanes && !pending_.empty() && !stopping_; ++i) {
        lanes_.push_back(std::make_unique<Lane>());
        start_next(*lanes_.back());
    }
    finish_if_idle();
}

void Runner::stop() {
    if (stopping_)
        return;
    stopping_ = true;
    // No remote bot's seat is made from now on: a bot that comes back is told its games are
    // over.
    if (options_.desk)
        options_.desk->expect_no_more();
    for (auto& lane : lanes_)
        if (lane->table)
            lane->table->abort(SIGTERM);
    finish_if_idle();
}

void Runner::fail(std::string error) {
    if (error_.empty())
        error_ = std::move(error);
    stop();
}

void Runner::start_next(Lane& lane) {
    auto next = pending_.begin();
    if (pending_.empty() || stopping_ || !take_table(lane, next))
        return;
    lane.row = std::move(*next);
    pending_.erase(next);
    const TournamentSpec& spec = database_.spec();
    auto opened = GameFiles::open(spec.logs.empty() ? "" : game_log_path(spec.logs, lane.row.id),
                                  static_cast<int>(lane.row.game.seats.size()), true);
    if (auto* error = std::get_if<std::string>(&opened))
        return fail(*error);
    lane.files = std::move(std::get<std::unique_ptr<GameFiles>>(opened));
    if (options_.on_record)
        lane.files->log().observe([this, game = lane.row.id](const nlohmann::json& record) {
            options_.on_record(game, record);
        });
    try {
        database_.mark_running(lane.row.id);
    } catch (const std::exception& e) {
        return fail(fmt::format("the database could not be written: {}", e.what()));
    }
    start_game(lane);
}

bool Runner::take_table(Lane& lane, std::deque<FixtureRecord>::iterator& next) {
    if (lane.table) {
        if (const auto own = own_next(lane); own != pending_.end()) {
            next = own;
            return true;
        }
        retire(lane);
    }
    // The first game none of whose bots that play one game at a time (a remote bot, on its one
    // connection) is at another table now.
    next = std::find_if(pending_.begin(), pending_.end(),
                        [&](const auto& row) { return !held_elsewhere(bots_of(row.game)); });
    if (next == pending_.end()) {
        retry_.start(retry_ms);
        return false;
    }
    const std::vector<int> bots = bots_of(next->game);
    Lineup::Options lineup;
    lineup.keep = !options_.reuse.fresh;
    lineup.games_per_process = options_.reuse.games_per_process;
    lineup.kill_grace_ms = database_.spec().game.kill_grace_ms;
    // A let-go player gone: its table may be swept, and the run may be over.
    lineup.on_let_go = [this] { reaper_.start(0); };
    auto made = Table::open(loop_, *options_.venue, *options_.seats, bots, std::move(lineup));
    if (auto* error = std::get_if<cgroups::Machine::GameError>(&made)) {
        if (!error->no_free_cores) {
            fail(fmt::format("the game's cgroup could not be made: {}", error->message));
            return false;
        }
        // Other hosts hold the cores for now: the game waits, and tries again.
        if (options_.on_waiting)
            options_.on_waiting(error->message);
        retry_.start(retry_ms);
        return false;
    }
    lane.table = std::move(std::get<std::unique_ptr<Table>>(made));
    lane.bots = bots;
    return true;
}

std::deque<FixtureRecord>::iterator Runner::own_next(const Lane& lane) {
    auto first = pending_.end();
    for (auto row = pending_.begin(); row != pending_.end(); ++row) {
        if (bots_of(row->game) != lane.bots)
            continue;
        if (first == pending_.end())
            first = row;
        if (row->game.deal >= first->game.deal + lookahead_deals)
            continue;
        if (!lane.table->seen(row->game.seed))
            return row;
    }
    return first;
}

bool Runner::held_elsewhere(const std::vector<int>& bots) const {
    const auto holds = [&](const std::vector<int>& table) {
        return std::any_of(bots.begin(), bots.end(), [&](int bot) {
            return options_.seats->one_game_at_a_time(bot) &&
                   std::find(table.begin(), table.end(), bot) != table.end();
        });
    };
    return std::any_of(lanes_.begin(), lanes_.end(),
                       [&](const auto& lane) { return lane->table && holds(lane->bots); }) ||
           std::any_of(retired_.begin(), retired_.end(),
                       [&](const Retired& retired) { return holds(retired.bots); });
}

void Runner::retire(Lane& lane) {
    if (!lane.table)
        return;
    lane.table->dismiss();
    retired_.push_back({std::exchange(lane.bots, {}), std::move(lane.table)});
}

void Runner::start_game(Lane& lane) {
    const TournamentSpec& spec = database_.spec();
    const Fixture& scheduled = lane.row.game;
    Table::Game game;
    game.setup = spec.game;
    game.setup.game =
        RulesConfig{scheduled.seed, static_cast<int>(scheduled.seats.size()), spec.game.game.sets};
    // A remote bot's token is never written to a log.
    for (int bot : scheduled.seats)
        game.setup.commands.push_back(
            remote::shown_command(spec.bots[static_cast<std::size_t>(bot)].command));
    game.slots = slots_of(lane.bots, scheduled.seats);
    game.log = &lane.files->log();
    game.options.player_lines = [files = lane.files.get()](PlayerId player,
                                                           const std::string& line) {
        files->player_line(player, line);
    };
    if (options_.on_started)
        options_.on_started(lane.row);
    lane.ended.reset();
    lane.started_ms = uv_now(loop_);
    // The game is recorded from the reaper.
    lane.table->play(std::move(game), [this, &lane](Table::Ended ended) {
        lane.ended = std::move(ended);
        done_.push_back(&lane);
        reaper_.start(0);
    });
}

bool Runner::finish_game(Lane& lane) {
    const std::string error = lane.files->close();
    if (!error.empty()) {
        database_.mark_pending(lane.row.id);
        fail(error);
        return false;
    }
    if (lane.ended->result.end == End::aborted) {
        database_.mark_pending(lane.row.id);  // stopped: played again on resume
        return false;
    }
    lane.row.played = PlayedGame{std::move(lane.ended->result), uv_now(loop_) - lane.started_ms,
                                 lane.files->log_path()};
    return true;
}

// Finished games are recorded here, from a timer: never inside their own callback. The games
// that ended in this turn are committed together: one sync to disk, not one each.
void Runner::reap() {
    // Tables let go whose players are gone: their cgroups (and cores) go with them.
    std::erase_if(retired_, [](const Retired& retired) { return retired.table->finished(); });
    std::vector<Lane*> recorded;
    for (Lane* lane : done_) {
        try {
            if (finish_game(*lane))
                recorded.push_back(lane);
        } catch (const std::exception& e) {
            fail(fmt::format("the database could not be written: {}", e.what()));
        }
    }
    std::vector<std::pair<int, const PlayedGame*>> results;
    for (const Lane* lane : recorded)
        results.emplace_back(lane->row.id, &*lane->row.played);
    bool stored = false;
    try {
        if (!results.empty())
            database_.record(results);
        stored = true;
    } catch (const std::exception& e) {
        fail(fmt::format("the database could not be written: {}", e.what()));
    }
    for (Lane* lane : recorded) {
        lane->row.state = State::done;
        if (stored && options_.on_recorded)
            options_.on_recorded(lane->row);
    }
    for (Lane* lane : std::exchange(done_, {})) {
        lane->files.reset();
        start_next(*lane);
    }
    // A lane that waited for a bot held at another table (swept now, perhaps) tries again.
    for (auto& lane : lanes_)
        if (lane->idle())
            start_next(*lane);
    finish_if_idle();
}

void Runner::finish_if_idle() {
    if (finished_ || running() > 0 || !done_.empty() || (!pending_.empty() && !stopping_))
        return;
    // No game starts again: every table's players are let go, and waited for (each one gone
    // starts the reaper, which comes back here).
    for (auto& lane : lanes_)
        retire(*lane);
    std::erase_if(retired_, [](const Retired& retired) { return retired.table->finished(); });
    if (!retired_.empty())
        return;
    finished_ = true;
    // No remote bot's seat is made from now on: a session waiting for one is told so.
    if (options_.desk)
        options_.desk->expect_no_more();
    reaper_.close();
    retry_.close();
    if (options_.on_finished)
        options_.on_finished();
}

}  // namespace bg::tournament
