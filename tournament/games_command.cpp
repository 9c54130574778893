// tournament games: every game of the schedule, as a table, JSON or CSV; tournament standings.
#include <filesystem>

#include "record/game_files.hpp"
#include "record/json_value.hpp"
#include "tournament/cli.hpp"
#include "tournament/commands.hpp"
#include "tournament/runner.hpp"
#include "tournament/standings.hpp"

namespace bg::tournament::commands {

using namespace cli;
using bg::escape_for_terminal;

namespace {

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

// Where what seat `seat` of a done game wrote to stderr is kept, or "" (no log, or nothing
// written).
std::string stderr_of(const FixtureRecord& row, std::size_t seat) {
    if (!row.played || row.played->log.empty())
        return "";
    std::string path = player_stderr_path(row.played->log, static_cast<int>(seat));
    std::error_code error;
    return std::filesystem::exists(path, error) ? path : "";
}

template <class T>
std::string optional_text(const std::optional<T>& value) {
    if (!value)
        return "";
    if constexpr (std::is_same_v<T, bool>)
        return *value ? "1" : "0";
    else if constexpr (std::is_floating_point_v<T>)
        return fmt::format("{:.1f}", *value);
    else
        return std::to_string(*value);
}

// A game as games --json says it: its place in the schedule, its state, and once done its result
// and each seat's.
nlohmann::json game_json(const FixtureRecord& row, const TournamentSpec& spec) {
    nlohmann::json seats = nlohmann::json::array();
    for (std::size_t s = 0; s < row.game.seats.size(); ++s) {
        nlohmann::json seat = {
            {"bot", spec.bots[static_cast<std::size_t>(row.game.seats[s])].name}};
        if (row.played) {
            const PlayerResult& r = row.played->result.players[s];
            const PeelCounts counts = r.counts.value_or(PeelCounts{});
            seat.update(nlohmann::json::object(
                {{"outcome", to_string(r.outcome)},
                 {"standing", r.rank},
                 {"tiles", r.tiles},
                 {"peels", r.peels},
                 {"dumps", r.dumps},
                 {"stale_peels", counts.stale},
                 {"timed_peels", counts.timed},
                 {"think_ms", counts.think_ms},
                 {"reason",
                  r.reason.empty() ? nlohmann::json(nullptr) : bg::bytes_to_json(r.reason)},
                 {"code",
                  r.out_code ? nlohmann::json(to_string(*r.out_code)) : nlohmann::json(nullptr)},
                 {"protocol", r.protocol},
                 {"cpu_ms", bg::json_or_null(r.cpu_ms)},
                 {"memory_peak_bytes", bg::json_or_null(r.memory_peak_bytes)},
                 {"process_game", r.process_game},
                 {"restarted", bg::json_or_null(r.restarted)},
                 {"cpu_wait_ms", bg::json_or_null(r.cpu_wait_ms)},
                 {"cpu_wait_note", r.cpu_wait_note.empty() ? nlohmann::json(nullptr)
                                                           : nlohmann::json(r.cpu_wait_note)}}));
            const std::string err_path = stderr_of(row, s);
            seat["stderr"] =
                err_path.empty() ? nlohmann::json(nullptr) : bg::bytes_to_json(err_path);
        }
        seats.push_back(std::move(seat));
    }
    nlohmann::json game = {{"id", row.id},
                           {"deal", row.game.deal},
                           {"seed", row.game.seed},
                           {"table", row.game.table},
                           {"rotation", row.game.rotation},
                           {"state", to_string(row.state)},
                           {"attempts", row.attempts},
                           {"seats", seats},
                           {"replay_of", bg::json_or_null(row.replay_of)},
                           {"replayed_by", bg::json_or_null(row.replayed_by)},
                           {"counts", row.counts()}};
    if (row.played) {
        const GameResult& r = row.played->result;
        const std::string& log = row.played->log;
        game.update(nlohmann::json::object(
            {{"end", r.end ? to_string(*r.end) : ""},
             {"winner_seat", bg::json_or_null(r.winner)},
             {"peels", r.peels},
             {"bunch", r.bunch},
             {"duration_ms", row.played->duration_ms},
             {"log", log.empty() ? nlohmann::json(nullptr) : bg::bytes_to_json(log)},
             {"host_version",
              r.host_version.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.host_version)},
             {"race_ms", bg::json_or_null(r.race_ms)},
             {"contended", bg::json_or_null(r.contended)}}));
    }
    return game;
}

// games --csv: one row a seat.
void write_csv(const std::vector<FixtureRecord>& rows, const TournamentSpec& spec) {
    const auto name = [&](int bot) { return spec.bots[static_cast<std::size_t>(bot)].name; };
    out.write(
        "game,deal,seed,table,rotation,state,end,duration_ms,seat,bot,outcome,standing,"
        "tiles,peels,dumps,stale_peels,think_ms,reason,log,cpu_ms,memory_peak_bytes,"
        "host_version,stderr,cpu_wait_ms,cpu_wait_note,race_ms,contended,replay_of,replayed_by,"
        "code\n");
    for (const auto& row : rows)
        for (std::size_t s = 0; s < row.game.seats.size(); ++s) {
            std::string line =
                fmt::format("{},{},{},{},{},{},", row.id, row.game.deal, row.game.seed,
                            row.game.table, row.game.rotation, to_string(row.state));
            std::string code;
            if (row.played) {
                const GameResult& r = row.played->result;
                const PlayerResult& seat = r.players[s];
                const PeelCounts counts = seat.counts.value_or(PeelCounts{});
                if (seat.out_code)
                    code = to_string(*seat.out_code);
                line += fmt::format(
                    "{},{},{},{},{},{},{},{},{},{},{:.1f},{},{},{},{},{},{}\n",
                    r.end ? to_string(*r.end) : "", row.played->duration_ms, s + 1,
                    csv_field(name(row.game.seats[s])), to_string(seat.outcome), seat.rank,
                    seat.tiles, seat.peels, seat.dumps, counts.stale, counts.think_ms,
                    csv_field(seat.reason), csv_field(row.played->log),
                    seat.cpu_ms ? fmt::format("{:.1f}", *seat.cpu_ms) : "",
                    seat.memory_peak_bytes ? std::to_string(*seat.memory_peak_bytes) : "",
                    csv_field(r.host_version), csv_field(stderr_of(row, s)));
                line.pop_back();  // the new columns follow (schema 4)
                line += fmt::format(",{},{},{},{},", optional_text(seat.cpu_wait_ms),
                                    csv_field(seat.cpu_wait_note), optional_text(r.race_ms),
                                    optional_text(r.contended));
            } else {
                // Its end and duration, its seat and bot, then 17 empty columns to replay_of.
                line += fmt::format(",,{},{}{}", s + 1, csv_field(name(row.game.seats[s])),
                                    std::string(18, ','));
            }
            out.write(line + fmt::format("{},{},{}\n", optional_text(row.replay_of),
                                         optional_text(row.replayed_by), code));
        }
}

// games: a table for people.
void write_table(const std::vector<FixtureRecord>& rows, const TournamentSpec& spec) {
    out.write(fmt::format("{:>6} {:>5} {:>20} {:>4} {:<8} {:<21} {}\n", "game", "deal", "seed",
                          "rot", "state", "end", "seats (bot: outcome, standing)"));
    for (const auto& row : rows) {
        std::string seats;
        for (std::size_t s = 0; s < row.game.seats.size(); ++s) {
            seats +=
                (s ? "  " : "") +
                escape_for_terminal(spec.bots[static_cast<std::size_t>(row.game.seats[s])].name);
            if (row.played)
                seats += fmt::format(": {} {}", to_string(row.played->result.players[s].outcome),
                                     row.played->result.players[s].rank);
        }
        // Contention and replays after the seats.
        if (row.played && row.played->result.contended == true)
            seats += "  (contended)";
        if (row.replay_of)
            seats += fmt::format("  (replays game {})", *row.replay_of);
        if (row.replayed_by)
            seats += fmt::format("  (replayed by game {}: not counted)", *row.replayed_by);
        out.write(fmt::format(
            "{:>6} {:>5} {:>20} {:>4} {:<8} {:<21} {}\n", row.id, row.game.deal, row.game.seed,
            row.game.rotation, to_string(row.state),
            row.played && row.played->result.end ? to_string(*row.played->result.end) : "", seats));
    }
}

int list_games(const Database& database, bool json, bool csv) {
    const TournamentSpec& spec = database.spec();
    const auto rows = database.games();
    if (json) {
        nlohmann::json games = nlohmann::json::array();
        for (const auto& row : rows)
            games.push_back(game_json(row, spec));
        out.write(games.dump() + "\n");
    } else if (csv) {
        write_csv(rows, spec);
    } else {
        write_table(rows, spec);
    }
    return exit_done;
}

}  // namespace

int standings(const po::variables_map& vm) {
    auto opened = open_database(vm, Database::Access::read);
    if (!made_or_said(opened))
        return exit_database;
    const auto& database = *std::get<std::unique_ptr<Database>>(opened);
    const auto result = tournament::standings(database.spec(), database.games(), database.stopped(),
                                              vm["uncontended"].as<bool>());
    out.write(vm["json"].as<bool>() ? standings_json(result).dump() + "\n"
                                    : standings_table(result));
    return exit_done;
}

int games(const po::variables_map& vm) {
    auto opened = open_database(vm, Database::Access::read);
    if (!made_or_said(opened))
        return exit_database;
    return list_games(*std::get<std::unique_ptr<Database>>(opened), vm["json"].as<bool>(),
                      vm["csv"].as<bool>());
}

}  // namespace bg::tournament::commands
