// tournament run: a new database from the options, then its games played; tournament resume:
// the games of one that was stopped.
#include <cstdio>
#include <filesystem>
#include <thread>

#include "cli/options.hpp"
#include "match/word_list.hpp"
#include "tournament/cli.hpp"
#include "tournament/commands.hpp"
#include "tournament/play.hpp"
#include "tournament/spec.hpp"

namespace bg::tournament::commands {

using namespace cli;

po::options_description run_options() {
    po::options_description options("run");
    // clang-format off
    options.add_options()
        ("db", po::value<std::string>()->value_name("FILE"),
         "the tournament's database: a new file for run, an existing one otherwise")
        ("bot", po::value<std::vector<std::string>>()->value_name("NAME=CMD")->composing(),
         "a bot: its name (1-40 printable characters, no spaces) and its command, run verbatim "
         "through sh -c (again for each bot)")
        ("players", po::value<std::string>()->value_name("K")->default_value("2"),
         "seats a game (2 to 64)")
        ("format", po::value<std::string>()->value_name("F")->default_value("round-robin"),
         "round-robin: every set of K bots is a table; gauntlet: the first bot against every "
         "table of K-1 others")
        ("deals", po::value<std::string>()->value_name("N")->default_value("1"),
         "deals a table; each is played in all K rotations of the seats")
        ("seed", po::value<std::string>()->value_name("S")->default_value("1"),
         "the seed the whole schedule (every deal) derives from")
        ("shard", po::value<std::string>()->value_name("I/N"),
         "play only shard I of N (from 0): the games g (from 1) of the schedule with (g - 1) mod "
         "N = I, into this database; merge gathers the shards")
        ("logs", po::value<std::string>()->value_name("DIR"),
         "write each game's event log to DIR/game-NNNNNN.jsonl (made if missing)")
        ("sprt", po::value<std::vector<std::string>>()->multitoken()->value_name("elo0=E0 elo1=E1 alpha=A beta=B"),
         "two bots only: stop as soon as the sequential probability ratio test on game pairs "
         "decides between H0 (Elo difference of the first bot over the second = E0) and H1 (= "
         "E1); alpha and beta default to 0.05");
    // clang-format on
    bg::options::add_game(options);
    return options;
}

po::options_description play_options() {
    po::options_description options("run and resume");
    // clang-format off
    options.add_options()
        ("concurrency", po::value<std::string>()->value_name("N")
             ->default_value(std::to_string(std::max(1U, std::thread::hardware_concurrency()))),
         "games at once (default: the number of CPUs)")
        ("rating-interval", po::value<std::string>()->value_name("N")->default_value("50"),
         "the standings every N games on a terminal; a status line every N games otherwise")
        ("progress", po::value<std::string>()->value_name("SEC")->default_value("10"),
         "without a terminal (a log file, nohup, Slurm): a status line every SEC seconds too, "
         "whether or not a game ended meanwhile (1 to 86400)")
        ("json", po::bool_switch(), "print the standings at the end as JSON")
        ("serve", po::value<std::string>()->value_name("ADDR:PORT"),
         "while it plays, serve a live page of the tournament (standings, SPRT, the games "
         "running, peel by peel, and those finished with their replay pages) and its event "
         "stream (/events) on ADDR:PORT (port 0: any free one; the address is said). Use "
         "127.0.0.1: any other address shows the games (bots' names, commands, grids and "
         "stderr) to the network. No seed of a game not over is ever sent. A bot given as "
         "NAME=remote:TOKEN takes its seats there, over a WebSocket (docs/remote.md)");
    // clang-format on
    bg::options::add_remote_grace(options);
    options.add(bg::options::reuse());
    return options;
}

int run(const po::variables_map& vm) {
    TournamentSpec spec;
    PlaySettings settings;
    try {
        if (!vm.count("db"))
            throw po::error("--db FILE is needed: the database the tournament is kept in");
        if (vm.count("bot"))
            for (const auto& text : vm["bot"].as<std::vector<std::string>>()) {
                auto bot = parse_bot(text);
                if (auto* error = std::get_if<std::string>(&bot))
                    throw po::error(*error);
                spec.bots.push_back(std::get<Bot>(bot));
            }
        spec.players = static_cast<int>(bg::options::count(vm, "players", 2, 64));
        const auto format = format_from_string(vm["format"].as<std::string>());
        if (!format)
            throw po::error("--format must be round-robin or gauntlet");
        spec.format = *format;
        spec.deals = static_cast<int>(bg::options::count(vm, "deals", 1, max_scheduled_games));
        spec.seed = bg::options::count(vm, "seed", 0, UINT64_MAX);
        bg::options::read_game(vm, spec.game);
        std::string error;
        if (!bg::tile_rules_for(spec.players, spec.game.game.sets, &error))
            throw po::error(error);
        spec.sandboxed = bg::options::read_sandbox(vm, spec.sandbox);
        spec.shares = bg::options::read_shares(vm, spec.sandbox);
        if (vm.count("logs"))
            spec.logs = std::filesystem::absolute(vm["logs"].as<std::string>()).string();
        if (!spec.game.dictionary.empty())
            spec.game.dictionary = std::filesystem::absolute(spec.game.dictionary).string();
        if (vm.count("shard")) {
            auto shard = parse_shard(vm["shard"].as<std::string>());
            if (auto* why = std::get_if<std::string>(&shard))
                throw po::error(*why);
            spec.shard = std::get<TournamentSpec::Shard>(shard);
        }
        if (vm.count("sprt")) {
            auto sprt = parse_sprt(vm["sprt"].as<std::vector<std::string>>());
            if (auto* why = std::get_if<std::string>(&sprt))
                throw po::error(*why);
            spec.sprt = std::get<bg::stats::Sprt>(sprt);
        }
        settings = play_settings(vm);
        if (auto why = check(spec))
            throw po::error(*why);
        if (auto why = remote_without_server(spec, settings))
            throw po::error(*why);
    } catch (const po::error& e) {
        return usage_error(e.what());
    }
    std::optional<bg::Dictionary> loaded;
    auto found = bg::host_word_list(spec.game.dictionary, loaded);
    if (!made_or_said(found))
        return exit_database;
    spec.game.dictionary_fingerprint = std::get<const bg::Dictionary*>(found)->stats().fingerprint;
    spec.game.dictionary_name =
        bg::word_list_name(spec.game.dictionary, spec.game.dictionary_fingerprint);
    const std::string path = vm["db"].as<std::string>();
    auto created = Database::create(path, spec);
    if (!made_or_said(created))
        return exit_database;
    const int status = play(*std::get<std::unique_ptr<Database>>(created), settings);
    if (status == exit_no_sandbox) {
        // Nothing was played: the database this run made goes with it.
        created = std::string();
        for (const std::string suffix : {"", "-wal", "-shm"})
            std::remove((path + suffix).c_str());
    }
    return status;
}

int resume(const po::variables_map& vm) {
    PlaySettings settings;
    try {
        if (!vm.count("db"))
            throw po::error("--db FILE is needed: the database of the tournament to resume");
        settings = play_settings(vm);
    } catch (const po::error& e) {
        return usage_error(e.what());
    }
    auto opened = open_database(vm, Database::Access::write);
    if (!made_or_said(opened))
        return exit_database;
    return play(*std::get<std::unique_ptr<Database>>(opened), settings);
}

}  // namespace bg::tournament::commands
