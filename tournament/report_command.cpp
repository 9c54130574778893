// tournament report: the tournament's page, and a replay page for every game whose log is kept.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "record/json_value.hpp"
#include "tournament/cli.hpp"
#include "tournament/commands.hpp"
#include "tournament/runner.hpp"
#include "tournament/standings.hpp"
#include "viewer/pages.hpp"

namespace bg::tournament::commands {

using namespace cli;
using bg::escape_for_terminal;

int report(const po::variables_map& vm) {
    if (!vm.count("db") || !vm.count("html")) {
        log::error("report needs --db FILE and --html FILE\nTry 'tournament --help'.");
        return exit_usage;
    }
    auto opened = open_database(vm, Database::Access::read);
    if (!made_or_said(opened))
        return exit_database;
    const Database& database = *std::get<std::unique_ptr<Database>>(opened);
    const TournamentSpec& spec = database.spec();
    const auto rows = database.games();
    const std::filesystem::path html = vm["html"].as<std::string>();
    const std::filesystem::path folder = html.parent_path().empty() ? "." : html.parent_path();
    nlohmann::json seats = nlohmann::json::array();
    nlohmann::json games = nlohmann::json::array();
    int pages = 0, unreadable = 0;
    bool pages_folder_made = false;
    for (const auto& row : rows) {
        nlohmann::json names = nlohmann::json::array();
        for (int bot : row.game.seats)
            names.push_back(spec.bots[static_cast<std::size_t>(bot)].name);
        nlohmann::json game = {{"id", row.id},
                               {"deal", row.game.deal},
                               {"rotation", row.game.rotation},
                               {"state", to_string(row.state)},
                               {"end", nullptr},
                               {"winner", nullptr},
                               {"seats", names},
                               {"page", nullptr},
                               {"contended", nullptr},
                               {"replay_of", bg::json_or_null(row.replay_of)},
                               {"replayed_by", bg::json_or_null(row.replayed_by)}};
        if (row.played) {
            const GameResult& r = row.played->result;
            if (r.end)
                game["end"] = to_string(*r.end);
            game["contended"] = bg::json_or_null(r.contended);
            if (r.winner)
                game["winner"] = names[static_cast<std::size_t>(*r.winner)];
            // Wins by seat over the games that count (a replayed game's replay instead).
            for (std::size_t s = 0; s < row.game.seats.size() && row.counts(); ++s) {
                if (seats.size() <= s)
                    seats.push_back({{"games", 0}, {"wins", 0}});
                seats[s]["games"] = seats[s]["games"].get<int>() + 1;
                if (r.winner == static_cast<PlayerId>(s))
                    seats[s]["wins"] = seats[s]["wins"].get<int>() + 1;
            }
            if (!row.played->log.empty()) {
                const auto name = fmt::format("games/game-{:06}.html", row.id);
                if (!pages_folder_made) {
                    std::error_code error;
                    std::filesystem::create_directories(folder / "games", error);
                    pages_folder_made = true;
                }
                std::ofstream page(folder / name, std::ios::binary);
                if (const auto made = replay_page(row); made && page) {
                    page << *made;
                    if (page.flush()) {
                        game["page"] = name;
                        ++pages;
                    }
                } else {
                    ++unreadable;
                }
            }
        }
        games.push_back(std::move(game));
    }
    const nlohmann::json data = {
        {"standings", standings_json(standings(spec, rows, database.stopped()))},
        {"seats", seats},
        {"games", games},
        {"notes", {{"elo", elo_note}, {"pairs", pairs_note}}}};
    std::ofstream out_file(html, std::ios::binary);
    out_file << bg::viewer::report_page(data);
    if (!out_file.flush()) {
        log::error("cannot write the report {}: {}", escape_for_terminal(html.string()),
                   std::strerror(errno));
        return exit_database;
    }
    log::info("the report: {} ({} game page{}{})", escape_for_terminal(html.string()), pages,
              pages == 1 ? "" : "s",
              unreadable ? fmt::format("; {} game logs could not be read", unreadable) : "");
    const bool logs_kept = std::any_of(rows.begin(), rows.end(), [](const FixtureRecord& row) {
        return row.played && !row.played->log.empty();
    });
    if (!logs_kept && std::any_of(rows.begin(), rows.end(),
                                  [](const FixtureRecord& row) { return row.played.has_value(); }))
        log::info(
            "no game has a page: its games' event logs were not kept (a run or a "
            "shard with --logs DIR keeps them; a game's page is made from its log)");
    return exit_done;
}

}  // namespace bg::tournament::commands
