// tournament merge: the games of shards gathered into one database.
#include <filesystem>

#include "tournament/cli.hpp"
#include "tournament/commands.hpp"
#include "tournament/spec.hpp"

namespace bg::tournament::commands {

using namespace cli;
using bg::escape_for_terminal;

namespace {

// The first twenty of `ids`, for a message ("3, 7, 12, ...").
std::string some_of(const std::vector<int>& ids) {
    std::string shown;
    for (std::size_t i = 0; i < ids.size() && i < 20; ++i)
        shown += fmt::format("{}{}", i ? ", " : "", ids[i]);
    return shown + (ids.size() > 20 ? ", ..." : "");
}

}  // namespace

int merge(const po::variables_map& vm) {
    std::vector<std::string> inputs;
    try {
        if (!vm.count("db"))
            throw po::error("--db OUT is needed: the database the shards are merged into");
        if (vm.count("shards"))
            inputs = vm["shards"].as<std::vector<std::string>>();
        if (inputs.empty())
            throw po::error("no shards given: tournament merge --db OUT SHARD.db...");
    } catch (const po::error& e) {
        return usage_error(e.what());
    }
    std::vector<std::unique_ptr<Database>> shards;
    for (const auto& path : inputs) {
        auto opened = Database::open(path, Database::Access::read);
        if (!made_or_said(opened))
            return exit_database;
        shards.push_back(std::move(std::get<std::unique_ptr<Database>>(opened)));
        if (auto why = difference(shards.front()->spec(), shards.back()->spec())) {
            log::error("{} and {} are not shards of one tournament: {}",
                       escape_for_terminal(inputs.front()), escape_for_terminal(path), *why);
            return exit_database;
        }
    }
    const std::string out_path = vm["db"].as<std::string>();
    std::unique_ptr<Database> merged;
    if (std::filesystem::exists(out_path)) {
        auto opened = Database::open(out_path, Database::Access::write);
        if (!made_or_said(opened))
            return exit_database;
        merged = std::move(std::get<std::unique_ptr<Database>>(opened));
        if (merged->spec().shard) {
            log::error("{} is a shard itself; merge into a new file or an earlier merge",
                       escape_for_terminal(out_path));
            return exit_database;
        }
        if (auto why = difference(merged->spec(), shards.front()->spec())) {
            log::error("{} holds another tournament than {}: {}", escape_for_terminal(out_path),
                       escape_for_terminal(inputs.front()), *why);
            return exit_database;
        }
    } else {
        TournamentSpec spec = shards.front()->spec();
        spec.shard.reset();
        spec.logs.clear();
        auto created = Database::create(out_path, spec);
        if (!made_or_said(created))
            return exit_database;
        merged = std::move(std::get<std::unique_ptr<Database>>(created));
    }
    if (auto error = merged->lock_for_running()) {
        log::error("{}", *error);
        return exit_database;
    }
    std::vector<FixtureRecord> rows;
    for (const auto& shard : shards) {
        auto games = shard->games();
        std::move(games.begin(), games.end(), std::back_inserter(rows));
    }
    const Database::Merged result = merged->merge(rows);
    if (!result.conflicts.empty()) {
        log::error(
            "{} game{} done twice with different results (game{} {}): nothing was merged; "
            "merge only one database of each shard",
            result.conflicts.size(), result.conflicts.size() == 1 ? "" : "s",
            result.conflicts.size() == 1 ? "" : "s", some_of(result.conflicts));
        return exit_database;
    }
    const auto all = merged->games();
    std::vector<int> missing;
    for (const auto& row : all)
        if (!row.played)
            missing.push_back(row.id);
    log::info(
        "merged {} shard database{}: {} game{} added, {} already there; {} of {} "
        "games done",
        shards.size(), shards.size() == 1 ? "" : "s", result.added, result.added == 1 ? "" : "s",
        result.already, all.size() - missing.size(), all.size());
    if (result.replays > 0)
        log::info(
            "{} replay{} of contended games in the shards left out (their first "
            "plays are merged): 'tournament resume --db {} --replay-contended' replays here",
            result.replays, result.replays == 1 ? "" : "s", escape_for_terminal(merged->path()));
    if (missing.empty())
        return exit_done;
    const auto& shard = shards.front()->spec().shard;
    log::error(
        "{} game{} missing: {}{}", missing.size(), missing.size() == 1 ? "" : "s", some_of(missing),
        shard ? fmt::format(" (game g is in shard (g - 1) mod {}: resume those shards, then merge "
                            "again)",
                            shard->count)
              : "");
    return exit_incomplete;
}
}  // namespace bg::tournament::commands
