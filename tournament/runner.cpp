#include "tournament/runner.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "core/text.hpp"
#include "record/json_value.hpp"
#include "record/output_file.hpp"
#include "remote/remote_seat.hpp"
#include "remote/token.hpp"
#include "viewer/pages.hpp"

namespace bg::tournament {

namespace {

// How soon a game that found no free cores looks again.
constexpr std::uint64_t retry_ms = 250;

}  // namespace

// A table's bots as one slot plays them: their lineup, in a cgroup (with its cores) that outlives
// it.
struct Runner::Table {
    std::vector<int> bots;  // their ids, sorted: a game with these seats is this table's
    std::unique_ptr<cgroups::GameCgroup> cgroup;
    std::unique_ptr<Lineup> lineup;

    // The lineup's slot of each seat of a game of this table (a bot twice in a game: two slots).
    std::vector<int> slots_of(const std::vector<int>& seats) const {
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
};

struct Runner::Slot {
    FixtureRecord row;
    std::unique_ptr<Table> table;
    std::vector<bool> restarted;  // each seat's, from its lineup
    std::optional<OutputFile> log_file;
    std::string log_path;
    std::unique_ptr<EventLog> log;
    // What each player wrote to stderr (capped and escaped as the host does), beside the log:
    // opened at a player's first line.
    std::vector<std::optional<OutputFile>> stderr_files;
    std::string stderr_error;
    std::unique_ptr<Match> match;
    std::uint64_t started_ms = 0;
};

std::string player_stderr_path(const std::string& log_path, int seat) {
    const std::string stem = log_path.size() > 6 && log_path.ends_with(".jsonl")
                                 ? log_path.substr(0, log_path.size() - 6)
                                 : log_path;
    return fmt::format("{}.player-{}.stderr", stem, seat + 1);
}

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

PlayedGame played_game(const Referee& referee, const std::vector<bool>& restarted,
                       std::uint64_t duration_ms, std::string log) {
    PlayedGame played{referee.result(), duration_ms, std::move(log)};
    auto& players = played.result.players;
    for (std::size_t s = 0; s < players.size(); ++s)
        players[s].restarted = s < restarted.size() && restarted[s];
    return played;
}

Runner::Runner(uv_loop_t* loop, Database& database, std::vector<FixtureRecord> pending,
               Options options)
    : loop_(loop),
      database_(database),
      pending_(pending.begin(), pending.end()),
      options_(std::move(options)),
      reaper_(loop, [this] { reap(); }),
      retry_(loop, [this] {
          for (auto& slot : slots_)
              if (!slot->match)
                  start_next(*slot);
          finish_if_idle();
      }) {}

Runner::~Runner() = default;

void Runner::note(const std::string& what) {
    for (const auto& slot : slots_)
        if (slot->match)
            slot->match->note(what);
}

int Runner::running() const {
    int n = 0;
    for (const auto& slot : slots_)
        n += slot->match != nullptr;
    return n;
}

void Runner::start() {
    const int slots = std::max(1, options_.concurrency);
    for (int i = 0; i < slots && !pending_.empty() && !stopping_; ++i) {
        slots_.push_back(std::make_unique<Slot>());
        start_next(*slots_.back());
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
    for (auto& slot : slots_)
        if (slot->match)
            slot->match->abort(SIGTERM);
    finish_if_idle();
}

void Runner::fail(std::string error) {
    if (error_.empty())
        error_ = std::move(error);
    stop();
}

namespace {

std::vector<int> table_of(const Fixture& game) {
    std::vector<int> bots = game.seats;
    std::sort(bots.begin(), bots.end());
    return bots;
}

}  // namespace

void Runner::start_next(Slot& slot) {
    auto next = pending_.begin();
    if (pending_.empty() || stopping_ || !take_table(slot, next))
        return;
    slot.row = std::move(*next);
    pending_.erase(next);
    if (!open_records(slot))
        return;
    try {
        database_.mark_running(slot.row.id);
    } catch (const std::exception& e) {
        return fail(fmt::format("the database could not be written: {}", e.what()));
    }
    start_match(slot);
}

bool Runner::take_table(Slot& slot, std::deque<FixtureRecord>::iterator& next) {
    if (slot.table) {
        const auto own = std::find_if(pending_.begin(), pending_.end(), [&](const auto& row) {
            return table_of(row.game) == slot.table->bots;
        });
        if (own != pending_.end()) {
            next = own;
            return true;
        }
        retire(slot);
    }
    auto made = options_.venue->game_cgroup();
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
    auto table = std::make_unique<Table>();
    table->bots = table_of(next->game);
    table->cgroup = std::move(std::get<std::unique_ptr<cgroups::GameCgroup>>(made));
    Lineup::Options lineup;
    lineup.keep = !options_.reuse.fresh;
    lineup.games_per_process = options_.reuse.games_per_process;
    lineup.kill_grace_ms = database_.spec().game.kill_grace_ms;
    // A let-go player gone: its table may be swept, and the run may be over.
    lineup.on_let_go = [this] { reaper_.start(0); };
    lineup.other_seat = [this, bots = table->bots](int slot) -> std::unique_ptr<Seat> {
        const std::string& command =
            database_.spec()
                .bots[static_cast<std::size_t>(bots[static_cast<std::size_t>(slot)])]
                .command;
        if (!remote::is_remote(command) || !options_.desk)
            return nullptr;
        remote::RemoteSeat::Options seat;
        seat.grace_ms = options_.remote_grace_ms;
        return std::make_unique<remote::RemoteSeat>(loop_, *options_.desk,
                                                    std::string(remote::token_of(command)), seat);
    };
    table->lineup = std::make_unique<Lineup>(loop_, *options_.venue, table->cgroup.get(),
                                             table->bots, std::move(lineup));
    slot.table = std::move(table);
    return true;
}

void Runner::retire(Slot& slot) {
    if (!slot.table)
        return;
    slot.table->lineup->dismiss();
    retired_.push_back(std::move(slot.table));
}

bool Runner::open_records(Slot& slot) {
    const TournamentSpec& spec = database_.spec();
    slot.log_path.clear();
    slot.log_file.reset();
    slot.stderr_files.clear();
    slot.stderr_files.resize(slot.row.game.seats.size());
    slot.stderr_error.clear();
    if (!spec.logs.empty()) {
        slot.log_path = game_log_path(spec.logs, slot.row.id);
        auto made = OutputFile::create(slot.log_path);
        if (auto* error = std::get_if<std::string>(&made)) {
            fail(fmt::format("cannot write the game log {}: {}", escape_for_terminal(slot.log_path),
                             *error));
            return false;
        }
        slot.log_file.emplace(std::move(std::get<OutputFile>(made)));
        // An attempt stopped before (the game is played again from the start) leaves nothing.
        for (std::size_t seat = 0; seat < slot.stderr_files.size(); ++seat)
            std::remove(player_stderr_path(slot.log_path, static_cast<int>(seat)).c_str());
    }
    slot.log = std::make_unique<EventLog>(slot.log_file ? slot.log_file->get() : nullptr);
    if (options_.on_record)
        slot.log->observe([this, game = slot.row.id](const nlohmann::json& record) {
            options_.on_record(game, record);
        });
    return true;
}

void Runner::start_match(Slot& slot) {
    const TournamentSpec& spec = database_.spec();
    const Fixture& scheduled = slot.row.game;
    GameSetup setup = spec.game;
    setup.game =
        RulesConfig{scheduled.seed, static_cast<int>(scheduled.seats.size()), spec.game.game.sets};
    // A remote bot's token is never written to a log.
    for (int bot : scheduled.seats)
        setup.commands.push_back(
            remote::shown_command(spec.bots[static_cast<std::size_t>(bot)].command));
    Lineup::Seating seating = slot.table->lineup->seat(slot.table->slots_of(scheduled.seats));
    setup.game.continuing = std::move(seating.continuing);
    slot.restarted = std::move(seating.restarted);
    options_.venue->describe(setup, slot.table->cgroup.get());
    if (options_.on_started)
        options_.on_started(slot.row);
    Match::Options match_options;
    match_options.keep = true;  // the lineup parks or lets go a player that stays
    if (!slot.log_path.empty())
        match_options.player_lines = [&slot](PlayerId player, const std::string& line) {
            auto& file = slot.stderr_files[static_cast<std::size_t>(player)];
            const std::string path = player_stderr_path(slot.log_path, static_cast<int>(player));
            if (!file && slot.stderr_error.empty()) {
                auto made = OutputFile::create(path);
                if (auto* error = std::get_if<std::string>(&made))
                    slot.stderr_error = fmt::format("{}: {}", path, *error);
                else
                    file.emplace(std::move(std::get<OutputFile>(made)));
            }
            if (file &&
                (std::fputs(line.c_str(), file->get()) < 0 || std::fputc('\n', file->get()) < 0) &&
                slot.stderr_error.empty())
                slot.stderr_error = fmt::format("{}: {}", path, std::strerror(errno));
        };
    // Its players go back to their lineup at once (those that stay parked, their output read
    // by the lineup from the next turn on); the game is recorded from the reaper.
    match_options.on_done = [this, &slot] {
        slot.table->lineup->take_back(slot.match->release_seats(),
                                      slot.match->referee().game().players());
        done_.push_back(&slot);
        reaper_.start(0);
    };
    slot.started_ms = uv_now(loop_);
    slot.match =
        std::make_unique<Match>(loop_, std::move(setup), options_.venue->dictionary(), *slot.log,
                                std::move(seating.seats), std::move(match_options));
    for (std::size_t i = 0; i < seating.readers.size(); ++i)
        if (seating.readers[i])
            slot.match->continue_reader(static_cast<PlayerId>(i), std::move(*seating.readers[i]));
    slot.match->start();
}

// A game over: its log and its players' stderr closed. Whether they were kept whole (else the
// game goes back to pending and the run fails, saying why).
bool Runner::records_kept(Slot& slot) {
    const std::string closed = slot.log_file ? slot.log_file->close() : "";
    slot.log_file.reset();
    for (auto& file : slot.stderr_files)
        if (file)
            if (auto error = file->close(); !error.empty() && slot.stderr_error.empty())
                slot.stderr_error = error;
    if (slot.log->failed() || !closed.empty()) {
        database_.mark_pending(slot.row.id);
        fail(fmt::format("the game log {} could not be written ({})",
                         escape_for_terminal(slot.log_path),
                         slot.log->failed() ? slot.log->error() : closed));
        return false;
    }
    if (!slot.stderr_error.empty()) {
        database_.mark_pending(slot.row.id);
        fail(fmt::format("a player's stderr could not be kept beside the game log {} ({})",
                         escape_for_terminal(slot.log_path),
                         escape_for_terminal(slot.stderr_error)));
        return false;
    }
    return true;
}

// Finished matches are recorded and destroyed here, from a timer: never inside their own
// callback. The games that ended in this turn are committed together: one sync to disk, not
// one each.
void Runner::reap() {
    // Tables let go whose players are gone: their cgroups (and cores) go with them.
    std::erase_if(retired_, [](const auto& table) { return table->lineup->finished(); });
    std::vector<Slot*> recorded;
    for (Slot* slot : done_) {
        try {
            const Referee& referee = slot->match->referee();
            if (!records_kept(*slot))
                continue;
            if (referee.game().end() == End::aborted) {
                database_.mark_pending(slot->row.id);  // stopped: played again on resume
                continue;
            }
            slot->row.played = played_game(referee, slot->restarted,
                                           uv_now(loop_) - slot->started_ms, slot->log_path);
            recorded.push_back(slot);
        } catch (const std::exception& e) {
            fail(fmt::format("the database could not be written: {}", e.what()));
        }
    }
    std::vector<std::pair<int, const PlayedGame*>> results;
    for (const Slot* slot : recorded)
        results.emplace_back(slot->row.id, &*slot->row.played);
    bool stored = false;
    try {
        if (!results.empty())
            database_.record(results);
        stored = true;
    } catch (const std::exception& e) {
        fail(fmt::format("the database could not be written: {}", e.what()));
    }
    for (Slot* slot : recorded) {
        slot->row.state = State::done;
        if (stored && options_.on_recorded)
            options_.on_recorded(slot->row);
    }
    for (Slot* slot : std::exchange(done_, {})) {
        slot->match.reset();
        slot->log.reset();
        start_next(*slot);
    }
    finish_if_idle();
}

void Runner::finish_if_idle() {
    if (finished_ || running() > 0 || !done_.empty() || (!pending_.empty() && !stopping_))
        return;
    // No game starts again: every table's players are let go, and waited for (each one gone
    // starts the reaper, which comes back here).
    for (auto& slot : slots_)
        retire(*slot);
    std::erase_if(retired_, [](const auto& table) { return table->lineup->finished(); });
    if (!retired_.empty())
        return;
    finished_ = true;
    reaper_.close();
    retry_.close();
    if (options_.on_finished)
        options_.on_finished();
}

}  // namespace bg::tournament
