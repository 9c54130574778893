#include "tournament/runner.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "core/text.hpp"
#include "host/host_dictionaries.hpp"
#include "host/options.hpp"
#include "record/json_value.hpp"
#include "viewer/pages.hpp"

namespace bg::tournament {

namespace {

// How soon a game that found no free cores looks again.
constexpr std::uint64_t retry_ms = 250;

}  // namespace

struct Runner::Slot {
    GameRow row;
    std::unique_ptr<cgroups::Game> cgroup;
    std::FILE* log_file = nullptr;
    std::string log_path;
    std::unique_ptr<EventLog> log;
    // What each player wrote to stderr (capped and escaped as the host does), beside the log:
    // opened at a player's first line.
    std::vector<std::FILE*> stderr_files;
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

std::optional<std::string> replay_page(const GameRow& row) {
    if (!row.result || row.result->log.empty())
        return std::nullopt;
    const std::string& log_path = row.result->log;
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

GameResult game_result(const Referee& referee, std::uint64_t duration_ms, std::string log) {
    const Game& game = referee.game();
    const nlohmann::json result = referee.result();
    GameResult out;
    out.end = game.end() ? std::string(to_string(*game.end())) : "";
    if (game.winner())
        out.winner_seat = static_cast<int>(*game.winner());
    out.peels = game.peel_number();
    out.bunch = static_cast<int>(game.bunch_size());
    out.duration_ms = duration_ms;
    out.log = std::move(log);
    out.host_version = result["host_version"].get<std::string>();
    const std::vector<int> standings = game.standings();
    for (std::size_t i = 0; i < game.players().size(); ++i) {
        const PlayerState& p = game.players()[i];
        const SeatStats& stats = referee.seat_stats(static_cast<PlayerId>(i));
        const auto& recorded = result["players"][i];
        SeatResult seat{recorded["outcome"].get<std::string>(),
                        standings[i],
                        static_cast<int>(p.hand.total()),
                        p.peels,
                        p.dumps,
                        stats.stale_peels,
                        stats.timed_peels,
                        static_cast<double>(stats.think_ns) / 1e6,
                        p.reason,
                        recorded["protocol"].get<std::string>(),
                        std::nullopt,
                        std::nullopt};
        if (const auto cpu = recorded.find("cpu_ms"); cpu != recorded.end() && cpu->is_number())
            seat.cpu_ms = cpu->get<double>();
        if (const auto peak = recorded.find("memory_peak_bytes");
            peak != recorded.end() && peak->is_number())
            seat.memory_peak_bytes = peak->get<std::uint64_t>();
        out.seats.push_back(std::move(seat));
    }
    return out;
}

Runner::Runner(uv_loop_t* loop, Database& database, const Dictionary& dictionary,
               std::vector<GameRow> pending, Options options)
    : loop_(loop),
      database_(database),
      dictionary_(dictionary),
      pending_(pending.begin(), pending.end()),
      options_(std::move(options)),
      reaper_(loop, [this] { reap(); }),
      retry_(loop, [this] {
          for (auto& slot : slots_)
              if (!slot->match)
                  start_next(*slot);
          finish_if_idle();
      }) {}

Runner::~Runner() {
    for (auto& slot : slots_)
        if (slot->log_file)
            std::fclose(slot->log_file);
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

void Runner::start_next(Slot& slot) {
    if (pending_.empty() || stopping_)
        return;
    if (options_.cgroups) {
        auto made = options_.cgroups->game(options_.cpus_per_game);
        if (auto* error = std::get_if<cgroups::Machine::GameError>(&made)) {
            if (!error->no_free_cores)
                return fail(fmt::format("the game's cgroup could not be made: {}", error->message));
            // Other hosts hold the cores for now: the game waits, and tries again.
            if (options_.on_waiting)
                options_.on_waiting(error->message);
            retry_.start(retry_ms);
            return;
        }
        slot.cgroup = std::move(std::get<std::unique_ptr<cgroups::Game>>(made));
    }
    slot.row = std::move(pending_.front());
    pending_.pop_front();
    const Spec& spec = database_.spec();
    const ScheduledGame& scheduled = slot.row.game;
    Setup setup = spec.game;
    setup.game =
        GameConfig{scheduled.seed, static_cast<int>(scheduled.seats.size()), spec.game.game.sets};
    setup.dictionary_fingerprint = dictionary_.stats().fingerprint;
    setup.dictionary_name = word_list_name(setup.dictionary, setup.dictionary_fingerprint);
    setup.sandbox = options_.sandbox;
    if (options_.cgroups)
        setup.shares = options::shares_json(options_.cgroups->kind(), options_.limits,
                                            options_.cpus_per_game, slot.cgroup->cpus());
    std::vector<Launch> launches;
    for (int bot : scheduled.seats) {
        setup.commands.push_back(spec.bots[static_cast<std::size_t>(bot)].command);
        launches.push_back(options_.launches[static_cast<std::size_t>(bot)]);
    }
    slot.log_path.clear();
    if (!spec.logs.empty()) {
        slot.log_path =
            (std::filesystem::path(spec.logs) / fmt::format("game-{:06}.jsonl", slot.row.id))
                .string();
        // Close-on-exec: no player may write, cut or read the record of its game.
        slot.log_file = std::fopen(slot.log_path.c_str(), "we");
        if (!slot.log_file)
            return fail(fmt::format("cannot write the game log {}: {}",
                                    escape_for_terminal(slot.log_path), std::strerror(errno)));
    }
    try {
        database_.mark_running(slot.row.id);
    } catch (const std::exception& e) {
        return fail(fmt::format("the database could not be written: {}", e.what()));
    }
    slot.log = std::make_unique<EventLog>(slot.log_file);
    if (options_.on_record)
        slot.log->observe([this, game = slot.row.id](const nlohmann::json& record) {
            options_.on_record(game, record);
        });
    if (options_.on_started)
        options_.on_started(slot.row);
    Match::Options match_options;
    slot.stderr_files.assign(launches.size(), nullptr);
    slot.stderr_error.clear();
    // An attempt stopped before (the game is played again from the start) leaves nothing.
    if (!slot.log_path.empty())
        for (std::size_t seat = 0; seat < launches.size(); ++seat)
            std::remove(player_stderr_path(slot.log_path, static_cast<int>(seat)).c_str());
    if (!slot.log_path.empty())
        match_options.player_lines = [&slot](PlayerId player, const std::string& line) {
            std::FILE*& file = slot.stderr_files[static_cast<std::size_t>(player)];
            const auto path = [&] {
                return player_stderr_path(slot.log_path, static_cast<int>(player));
            };
            if (!file && slot.stderr_error.empty())
                file = std::fopen(path().c_str(), "we");  // close-on-exec, as the log
            if (!file || std::fputs(line.c_str(), file) < 0 || std::fputc('\n', file) < 0)
                if (slot.stderr_error.empty())
                    slot.stderr_error = fmt::format("{}: {}", path(), std::strerror(errno));
        };
    match_options.cgroup = slot.cgroup.get();
    match_options.limits = options_.limits;
    match_options.on_done = [this, &slot] {
        done_.push_back(&slot);
        reaper_.start(0);
    };
    slot.started_ms = uv_now(loop_);
    slot.match = std::make_unique<Match>(loop_, std::move(setup), dictionary_, *slot.log,
                                         std::move(launches), std::move(match_options));
    slot.match->start();
}

// Finished matches are recorded and destroyed here, from a timer: never inside their own
// callback.
void Runner::reap() {
    std::vector<Slot*> recorded;
    for (Slot* slot : done_) {
        const Referee& referee = slot->match->referee();
        const bool log_failed = slot->log->failed();
        const std::string log_error = log_failed ? slot->log->error() : "";
        bool closed = true;
        if (slot->log_file) {
            closed = std::fclose(slot->log_file) == 0;
            slot->log_file = nullptr;
        }
        const std::string close_error = closed ? "" : std::strerror(errno);
        for (std::FILE*& file : slot->stderr_files)
            if (file && std::fclose(std::exchange(file, nullptr)) != 0 &&
                slot->stderr_error.empty())
                slot->stderr_error = std::strerror(errno);
        try {
            if (log_failed || !closed) {
                database_.mark_pending(slot->row.id);
                fail(fmt::format("the game log {} could not be written ({})",
                                 escape_for_terminal(slot->log_path),
                                 log_failed ? log_error : close_error));
            } else if (!slot->stderr_error.empty()) {
                database_.mark_pending(slot->row.id);
                fail(fmt::format("a player's stderr could not be kept beside the game log {} ({})",
                                 escape_for_terminal(slot->log_path),
                                 escape_for_terminal(slot->stderr_error)));
            } else if (referee.game().end() == End::aborted) {
                database_.mark_pending(slot->row.id);  // stopped: played again on resume
            } else {
                slot->row.result =
                    game_result(referee, uv_now(loop_) - slot->started_ms, slot->log_path);
                recorded.push_back(slot);
            }
        } catch (const std::exception& e) {
            fail(fmt::format("the database could not be written: {}", e.what()));
        }
    }
    // The games that ended in this turn are committed together: one sync to disk, not one each.
    std::vector<std::pair<int, const GameResult*>> results;
    for (const Slot* slot : recorded)
        results.emplace_back(slot->row.id, &*slot->row.result);
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
        slot->cgroup.reset();  // its players' are gone with them
        start_next(*slot);
    }
    finish_if_idle();
}

void Runner::finish_if_idle() {
    if (finished_ || running() > 0 || !done_.empty() || (!pending_.empty() && !stopping_))
        return;
    finished_ = true;
    reaper_.close();
    retry_.close();
    if (options_.on_finished)
        options_.on_finished();
}

}  // namespace bg::tournament
