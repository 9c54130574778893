// End-to-end: the real tournament program, real sandboxed bots, a real SQLite database; and
// what a runner killed in the middle leaves behind.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "record/version.hpp"
#include "tests/support/game.hpp"
#include "tournament/schedule.hpp"

#include <SQLiteCpp/SQLiteCpp.h>

using namespace bg::test;
using nlohmann::json;

namespace {

const std::string tournament = BG_TOURNAMENT_PATH;

std::string bot(const std::string& mode, const std::string& tag) {
    return "exec " + python_bot("test_bot", mode, "--tag " + tag);
}

// A fresh database path of this test's own; the database, its journal files and the log folder
// beside it are removed when the test ends, passed or failed.
struct ScratchDb {
    explicit ScratchDb(const std::string& name) : path(scratch(name + ".db")) { remove(); }
    ScratchDb(const ScratchDb&) = delete;
    ScratchDb& operator=(const ScratchDb&) = delete;
    ~ScratchDb() { remove(); }
    void remove() const {
        for (const char* suffix : {"", "-wal", "-shm"})
            std::remove((path + suffix).c_str());
        std::error_code ignored;
        std::filesystem::remove_all(path + ".logs", ignored);
    }
    const std::string path;
};

std::vector<std::string> run_command(const std::string& db, std::vector<std::string> bots,
                                     std::vector<std::string> options) {
    std::vector<std::string> argv = {tournament, "run", "--db", db, "--dict", two_letters};
    // A game of sleepers lasts the game's time limit: 1 s unless the test says otherwise.
    if (std::find(options.begin(), options.end(), "--game-timeout") == options.end())
        argv.insert(argv.end(), {"--game-timeout", "1"});
    for (auto& b : bots)
        argv.insert(argv.end(), {"--bot", std::move(b)});
    argv.insert(argv.end(), options.begin(), options.end());
    return argv;
}

json games_of(const std::string& db) {
    const Run r = run({tournament, "games", "--db", db, "--json"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    return json::parse(r.out);
}

// Every row of games --csv has the header's 30 columns (a quoted field's commas are its own).
void check_csv_columns(const std::string& csv) {
    const auto columns = [](const std::string& line) {
        int count = 1;
        bool quoted = false;
        for (const char c : line) {
            quoted ^= c == '"';
            count += c == ',' && !quoted;
        }
        return count;
    };
    std::istringstream rows(csv);
    for (std::string line; std::getline(rows, line);) {
        INFO(line);
        CHECK(columns(line) == 30);
    }
}

int count_state(const json& games, const std::string& state) {
    int n = 0;
    for (const auto& g : games)
        n += g["state"] == state;
    return n;
}

}  // namespace

TEST_CASE(
    "tournament: a round-robin plays every scheduled game once, and the database is its "
    "record",
    "[tournament]") {
    const ScratchDb db_file("round-robin");
    const std::string& db = db_file.path;
    const std::string tag = scratch("rr-bots");
    // Bot b would leave (and be disqualified) if it could read the database (every deal's
    // seed) or see a game's log. Every game has a staircase, which peels the bunch dry: the
    // clock is only a safety net, so the one-peel bot cannot win by it.
    const std::string snoop = fmt::format(
        "if head -c 15 {} | grep -q 'SQLite format'; then exit 7; fi; "
        "if ls {}.logs | grep -q game; then exit 8; fi; ",
        db, db);
    const Run r =
        run(run_command(db,
                        {"a=" + bot("staircase", tag), "b=" + snoop + bot("staircase", tag),
                         "c=" + bot("peel-once", tag)},
                        {"--deals", "2", "--seed", "9", "--concurrency", "3", "--logs",
                         db + ".logs", "--json", "--game-timeout", "60"}),
            120);
    INFO(r.err);
    REQUIRE(r.status == 0);
    const json standings = json::parse(r.out);
    CHECK(standings["games"] == 12);
    CHECK(standings["done"] == 12);
    CHECK(processes_tagged(tag).empty());

    // The schedule in the database is the pure function's, every game done once.
    auto made = bg::tournament::schedule({3, 2, bg::tournament::Format::round_robin, 2, 9});
    const auto& expected = std::get<std::vector<bg::tournament::Fixture>>(made);
    const json games = games_of(db);
    REQUIRE(games.size() == expected.size());
    const std::vector<std::string> names = {"a", "b", "c"};
    int wins = 0;
    std::map<std::string, int> won;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const json& g = games[i];
        INFO("game " << i + 1);
        CHECK(g["state"] == "done");
        CHECK(g["attempts"] == 1);
        for (const auto& seat : g["seats"])
            CHECK(seat["outcome"] != "disqualified");
        CHECK(g["seed"] == expected[i].seed);
        CHECK(g["deal"] == expected[i].deal);
        CHECK(g["rotation"] == expected[i].rotation);
        for (std::size_t s = 0; s < 2; ++s)
            CHECK(g["seats"][s]["bot"] == names[static_cast<std::size_t>(expected[i].seats[s])]);
        // Its log replays to the result the database holds.
        const Run replay = run({host, "--replay", g["log"].get<std::string>(), "--json"});
        REQUIRE(replay.status == 0);
        const json result = json::parse(replay.out);
        CHECK(result["seed"] == g["seed"]);
        CHECK(result["winner"] == g["winner_seat"]);
        CHECK(result["end"] == g["end"]);
        if (g["winner_seat"].is_number()) {
            ++wins;
            ++won[g["seats"][g["winner_seat"].get<int>()]["bot"].get<std::string>()];
        }
    }
    int counted = 0;
    for (const auto& b : standings["bots"]) {
        CHECK(b["games"] == 8);
        CHECK(b["wins"] == won[b["name"].get<std::string>()]);
        counted += b["wins"].get<int>();
    }
    CHECK(counted == wins);
    // The one-peel bot never wins against a staircase: it is rated below both.
    CHECK(standings["bots"][2]["name"] == "c");
    // standings reads the same database to the same figures.
    const Run again = run({tournament, "standings", "--db", db, "--json"});
    REQUIRE(again.status == 0);
    CHECK(json::parse(again.out) == standings);
}

TEST_CASE(
    "tournament: a runner killed with SIGKILL is resumed, every game done exactly once and "
    "nothing of the killed run left",
    "[tournament]") {
    const ScratchDb db_file("killed");
    const std::string& db = db_file.path;
    const std::string tag = scratch("killed-bots");
    // Sleepers against each other play to the game's time limit (1 s); the staircase wins fast.
    Background runner =
        start(run_command(db,
                          {"fast=" + bot("staircase", tag), "slow=" + bot("sleep", tag),
                           "slower=" + bot("sleep", tag)},
                          {"--deals", "3", "--concurrency", "2", "--rating-interval", "1"}));
    json games;
    bool seen_running = false;
    for (int i = 0; i < 600; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
        // The database can be read while the run writes it, once the run has made it (until
        // its schema is committed, it is an SQLite file but not yet a tournament's).
        const Run listed = run({tournament, "games", "--db", db, "--json"});
        if (listed.status != 0)
            continue;
        games = json::parse(listed.out);
        seen_running = count_state(games, "running") > 0;
        if (count_state(games, "done") >= 4 && seen_running)
            break;
    }
    REQUIRE(seen_running);
    REQUIRE(::kill(runner.pid, SIGKILL) == 0);
    runner.wait(10);
    CHECK(wait_until_untagged(tag));

    games = games_of(db);
    REQUIRE(games.size() == 18);
    std::map<int, json> done_before;
    std::vector<int> running_before;
    for (const auto& g : games) {
        if (g["state"] == "done")
            done_before[g["id"]] = g;
        if (g["state"] == "running")
            running_before.push_back(g["id"]);
    }
    REQUIRE(!done_before.empty());
    REQUIRE(!running_before.empty());

    const Run resumed = run({tournament, "resume", "--db", db, "--json"}, 120);
    INFO(resumed.err);
    REQUIRE(resumed.status == 0);
    CHECK(resumed.err.find("left running by a stopped run will be played again") !=
          std::string::npos);
    CHECK(json::parse(resumed.out)["done"] == 18);
    games = games_of(db);
    int attempts = 0;
    for (const auto& g : games) {
        INFO("game " << g["id"]);
        CHECK(g["state"] == "done");
        attempts += g["attempts"].get<int>();
        // A game done before the kill is never played again: its record is as it was.
        if (done_before.count(g["id"]))
            CHECK(g == done_before[g["id"]]);
    }
    // The games running at the kill were started once more, and no other game was.
    CHECK(attempts == 18 + static_cast<int>(running_before.size()));
    for (int id : running_before)
        CHECK(games[static_cast<std::size_t>(id - 1)]["attempts"] == 2);
    CHECK(processes_tagged(tag).empty());
}

TEST_CASE(
    "tournament: SIGINT stops a run, its running games go back to pending, and resume "
    "finishes it",
    "[tournament]") {
    const ScratchDb db_file("interrupted");
    const std::string& db = db_file.path;
    const std::string tag = scratch("interrupted-bots"), go = scratch("interrupted.go");
    std::remove(go.c_str());
    // Staircases that begin to peel once the test makes the file `go`: no game can end before
    // the SIGINT, whatever the machine's speed.
    const std::string waiting =
        python_bot("test_bot", "staircase", "--wait-for " + go + " --tag " + tag);
    Background runner =
        start(run_command(db, {"x=exec " + waiting, "y=exec " + waiting},
                          {"--deals", "3", "--concurrency", "2", "--game-timeout", "600"}));
    REQUIRE(wait_for_tagged(tag));
    REQUIRE(::kill(runner.pid, SIGINT) == 0);
    const Run stopped = runner.wait(20);
    INFO(stopped.err);
    CHECK(stopped.status == 128 + SIGINT);
    CHECK(stopped.err.find("stopped by SIGINT; 'tournament resume --db") != std::string::npos);
    CHECK(processes_tagged(tag).empty());
    json games = games_of(db);
    CHECK(count_state(games, "running") == 0);
    CHECK(count_state(games, "pending") == 6);
    std::ofstream{go};
    const Run resumed = run({tournament, "resume", "--db", db}, 60);
    std::remove(go.c_str());
    INFO(resumed.err);
    REQUIRE(resumed.status == 0);
    games = games_of(db);
    CHECK(count_state(games, "done") == 6);
}

// How many of the database's games are done, read as another process would (WAL: never blocked
// by the runner's writes); -1 while it is not yet a tournament's.
int games_done(const std::string& db) {
    try {
        SQLite::Database database(db, SQLite::OPEN_READONLY);
        return database.execAndGet("SELECT count(*) FROM games WHERE state = 'done'").getInt();
    } catch (const SQLite::Exception&) {
        return -1;
    }
}

TEST_CASE("tournament: a signal at any point of a run's end still prints the standings",
          "[tournament]") {
    // Two short games at once. The test sends SIGTERM as soon as it sees the first game done, or
    // the last, and a few milliseconds later, to land in the moments around the run's end:
    // while the last game is recorded, after it, as the runner's signal watches close, as the
    // standings are fitted and printed. Every time the run says its standings: on stdout, status
    // 0, when every game was recorded (a signal then stops nothing); on stderr, status 143,
    // and how to resume, when a game was left.
    const std::string tag = scratch("end-signal-bots");
    int completed = 0, stopped = 0;
    for (int attempt = 0; attempt < 24; ++attempt) {
        const ScratchDb db_file("end-signal-" + std::to_string(attempt));
        const std::string& db = db_file.path;
        const int when_done = attempt % 6 == 0 ? 1 : 2;
        const auto delay = std::chrono::microseconds(500 * (attempt % 6));
        Background runner = start(
            run_command(db, {"a=" + bot("staircase", tag), "b=" + bot("staircase", tag)},
                        {"--deals", "1", "--concurrency", "2", "--game-timeout", "60", "--json"}));
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (games_done(db) < when_done && process_alive(runner.pid) &&
               std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        std::this_thread::sleep_for(delay);
        ::kill(runner.pid, SIGTERM);
        const Run r = runner.wait(60);
        INFO("attempt " << attempt << ", status " << r.status << "\nstdout: " << r.out
                        << "\nstderr: " << r.err);
        const int done = games_done(db);
        if (r.status == 0) {
            ++completed;
            CHECK(done == 2);
            const json standings = json::parse(r.out, nullptr, false);
            REQUIRE_FALSE(standings.is_discarded());
            CHECK(standings["done"] == 2);
        } else {
            ++stopped;
            CHECK(r.status == 128 + SIGTERM);
            CHECK(done < 2);
            CHECK(r.err.find(" bot ") != std::string::npos);  // the standings' table
            CHECK(r.err.find("stopped by SIGTERM; 'tournament resume --db") != std::string::npos);
        }
        CHECK(processes_tagged(tag).empty());
    }
    // Both ends were reached, or the test did not test what it says.
    CHECK(completed > 0);
    CHECK(stopped > 0);
}

TEST_CASE("tournament: without a terminal, a status line every --progress seconds",
          "[tournament]") {
    // Two games of players that never move: each lasts its 2.5 s clock, and no game is done
    // before then, so the lines before the end say that none is.
    const ScratchDb db_file("progress");
    const std::string tag = scratch("progress-bots");
    const Run r =
        run(run_command(
                db_file.path, {"a=" + bot("sleep", tag), "b=" + bot("sleep", tag)},
                {"--deals", "1", "--concurrency", "2", "--game-timeout", "2.5", "--progress", "1"}),
            60);
    INFO(r.err);
    CHECK(r.status == 0);
    int before_any = 0;
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);)
        before_any += line.rfind("games 0/2 (0%)", 0) == 0;
    CHECK(before_any >= 2);
    const Run refused = run({tournament, "run", "--db", db_file.path + "x", "--bot", "a=x", "--bot",
                             "b=y", "--progress", "0"});
    CHECK(refused.status == 2);
    CHECK(refused.err.find("--progress must be a whole number from 1 to 86400") !=
          std::string::npos);
}

TEST_CASE("tournament: an SPRT against a hopeless bot stops early and names the stronger",
          "[tournament]") {
    const ScratchDb db_file("sprt");
    const std::string& db = db_file.path;
    const std::string tag = scratch("sprt-bots");
    const Run r =
        run(run_command(db, {"strong=" + bot("staircase", tag), "weak=" + bot("sleep", tag)},
                        {"--format", "gauntlet", "--deals", "500", "--concurrency", "2", "--sprt",
                         "elo0=0", "elo1=50", "alpha=0.05", "beta=0.05", "--json"}),
            120);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("SPRT accepted H1") != std::string::npos);
    CHECK(r.err.find("strong is stronger than weak") != std::string::npos);
    const json standings = json::parse(r.out);
    CHECK(standings["done"].get<int>() < 1000);
    CHECK(standings["sprt"]["decision"] == "H1");
    CHECK(standings["sprt"]["llr"].get<double>() >= standings["sprt"]["upper_bound"].get<double>());
    CHECK(standings["stopped"].is_string());
    CHECK(processes_tagged(tag).empty());
    // A decided tournament is not played on by resume.
    const Run resumed = run({tournament, "resume", "--db", db, "--json"});
    CHECK(resumed.status == 0);
    CHECK(resumed.err.find("already stopped") != std::string::npos);
    CHECK(json::parse(resumed.out)["done"] == standings["done"]);
    // Its logs were not kept: the report says why it has no game pages, and how to have them.
    const Run report = run({tournament, "report", "--db", db, "--html", db + ".html"});
    CHECK(report.status == 0);
    CHECK(report.err.find("(0 game pages)") != std::string::npos);
    CHECK(report.err.find("were not kept (a run or a shard with --logs DIR keeps them") !=
          std::string::npos);
    std::remove((db + ".html").c_str());
}

TEST_CASE("tournament: bad input gets a clear error or a clear disqualification, never a crash",
          "[tournament]") {
    const std::string tag = scratch("bad-input-bots");
    const std::string good = "a=" + bot("staircase", tag);
    const auto expect = [](const std::vector<std::string>& argv, int status,
                           const std::string& message) {
        const Run r = run(argv, 60);
        INFO(r.err);
        CHECK(r.status == status);
        CHECK(r.err.find(message) != std::string::npos);
    };
    const ScratchDb db_file("bad");
    const std::string& db = db_file.path;
    expect(run_command(db, {good, "a=" + bot("sleep", tag)}, {}), 2, "two bots are named a");
    expect(run_command(db, {good, "b=" + bot("sleep", tag)}, {"--players", "3"}), 2,
           "need at least 3 bots");
    expect(run_command(db, {good, "b=x", "c=y"}, {"--sprt", "elo0=0", "elo1=5"}), 2,
           "--sprt compares two bots");
    expect(run_command(db, {good, "nameless"}, {}), 2, "--bot takes NAME=CMD");
    expect(run_command(db, {good, "b=x"}, {"--players", "0"}), 2, "--players must be");
    expect({tournament, "play", "--db", db}, 2, "unknown command 'play'");
    CHECK_FALSE(std::filesystem::exists(db));

    // Databases that cannot be used.
    expect({tournament, "standings", "--db", db}, 1, "start a tournament with 'tournament run'");
    { std::ofstream(db) << "not a database, only text\n"; }
    expect({tournament, "standings", "--db", db}, 1, "is not a tournament database");
    expect({tournament, "resume", "--db", db}, 1, "is not a tournament database");
    expect(run_command(db, {good, "b=x"}, {}), 1, "already exists");
    std::remove(db.c_str());
    const std::string folder = scratch("read-only-folder");
    std::filesystem::remove_all(folder);
    std::filesystem::create_directory(folder);
    ::chmod(folder.c_str(), 0555);
    // Root writes anywhere: the runner then runs as nobody, who may not write the folder.
    std::vector<std::string> as_user;
    if (::geteuid() == 0)
        as_user = {"/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"};
    auto argv = run_command(folder + "/t.db", {good, "b=x"}, {"--no-sandbox"});
    argv.insert(argv.begin(), as_user.begin(), as_user.end());
    expect(argv, 1, "cannot create the database");
    std::filesystem::remove_all(folder);

    // A command that cannot start is that bot's disqualification in each of its games.
    const ScratchDb ghost_db_file("ghost");
    const std::string& ghost_db = ghost_db_file.path;
    const Run r = run(run_command(ghost_db, {good, "ghost=/nonexistent/bot"}, {"--json"}), 60);
    INFO(r.err);
    REQUIRE(r.status == 0);
    for (const auto& g : games_of(ghost_db))
        for (const auto& seat : g["seats"])
            if (seat["bot"] == "ghost") {
                CHECK(seat["outcome"] == "disqualified");
                CHECK(seat["reason"].get<std::string>().rfind("could not start", 0) == 0);
            }
    const json standings = json::parse(r.out);
    for (const auto& b : standings["bots"])
        if (b["name"] == "ghost")
            CHECK(b["disqualifications"]["could not start"] == 2);
}

TEST_CASE(
    "tournament: every seat's CPU time and peak memory are recorded, and the standings show "
    "them",
    "[e2e][tournament]") {
    ScratchDb db("usage");
    const std::string tag = scratch("usage");
    const Run r =
        run(run_command(db.path, {"a=" + bot("staircase", tag), "b=" + bot("staircase", tag)},
                        {"--logs", db.path + ".logs"}));
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("cpu s/game") != std::string::npos);
    for (const auto& game : games_of(db.path)) {
        for (const auto& seat : game["seats"]) {
            CHECK(seat["cpu_ms"].get<double>() > 0);
            CHECK(seat["memory_peak_bytes"].get<std::uint64_t>() > 1 << 20);
        }
        // The game's log says how its players shared the machine.
        const auto records = log_records(game["log"].get<std::string>());
        CHECK(records.front()["start"]["shares"]["kind"].get<std::string>().rfind("cgroup", 0) ==
              0);
        CHECK(records.front()["start"]["shares"]["cpus"].is_null());
    }
    const Run standings = run({tournament, "standings", "--db", db.path, "--json"});
    REQUIRE(standings.status == 0);
    for (const auto& b : json::parse(standings.out)["bots"]) {
        CHECK(b["cpu_ms"].get<double>() > 0);
        CHECK(b["memory_peak_bytes"].get<std::uint64_t>() > 1 << 20);
    }
}

TEST_CASE(
    "tournament: what each player wrote to stderr is kept beside its game's log, named by games "
    "and shown on the game's page",
    "[e2e][tournament]") {
    ScratchDb db("stderr");
    const std::string tag = scratch("stderr");
    // Bot a writes a line with an escape sequence before it plays; bot b writes nothing.
    const Run r =
        run(run_command(db.path,
                        {"a=printf 'from a \\033[31mred\\n' >&2; " + bot("staircase", tag),
                         "b=" + bot("staircase", tag)},
                        {"--logs", db.path + ".logs"}));
    INFO(r.err);
    REQUIRE(r.status == 0);
    const json games = games_of(db.path);
    REQUIRE(games.size() == 2);
    for (const auto& game : games) {
        for (std::size_t s = 0; s < 2; ++s) {
            const json& seat = game["seats"][s];
            INFO("game " << game["id"] << ", seat " << s + 1);
            if (seat["bot"] == "b") {
                CHECK(seat["stderr"].is_null());
                continue;
            }
            // Beside the log, named by the seat, escaped as the host's own stderr shows it.
            const std::string log = game["log"].get<std::string>();
            const std::string expected =
                log.substr(0, log.size() - 6) + fmt::format(".player-{}.stderr", s + 1);
            REQUIRE(seat["stderr"] == expected);
            CHECK(read_file(expected) == "from a \\x1b[31mred\n");
        }
    }
    const Run csv = run({tournament, "games", "--db", db.path, "--csv"});
    REQUIRE(csv.status == 0);
    // Schema 4's columns come after the earlier ones, which keep their places, and the code
    // after them (schema 5).
    CHECK(csv.out.substr(0, csv.out.find('\n'))
              .ends_with(",host_version,stderr,cpu_wait_ms,cpu_wait_note,race_ms,contended,"
                         "replay_of,replayed_by,code"));
    CHECK(csv.out.find(".player-1.stderr,") != std::string::npos);
    check_csv_columns(csv.out);

    // The replay pages carry it, under the seat that wrote it.
    const std::string html = db.path + ".logs/report.html";
    const Run report = run({tournament, "report", "--db", db.path, "--html", html});
    REQUIRE(report.status == 0);
    CHECK(report.err.find("(2 game pages)") != std::string::npos);
    CHECK(report.err.find("not kept") == std::string::npos);
    for (const auto& game : games) {
        const std::string page = read_file(
            db.path + ".logs/" + fmt::format("games/game-{:06}.html", game["id"].get<int>()));
        const std::string opening = "id=\"stderr-data\">";
        const auto from = page.find(opening);
        REQUIRE(from != std::string::npos);
        const auto begin = from + opening.size();
        const json texts = json::parse(page.substr(begin, page.find("</script>", begin) - begin));
        const std::size_t a_seat = game["seats"][0]["bot"] == "a" ? 0 : 1;
        CHECK(texts[a_seat] == "from a \\x1b[31mred\n");
        CHECK(texts[1 - a_seat] == "");
    }
}

TEST_CASE("tournament: a database of schema version 1 is read as it is, and resumed into version 5",
          "[e2e][tournament]") {
    // Made by the tournament before the players' cgroups: 2 of its 4 games done, its paths
    // written @TESTS@ (made this checkout's here, as an organiser who moved the files would).
    ScratchDb db("schema-1");
    std::filesystem::copy_file(BG_TESTS_DIR "/data/tournament-schema-1.db", db.path);
    const auto version = [&] {
        SQLite::Database sql(db.path, SQLite::OPEN_READONLY);
        return sql.execAndGet("PRAGMA user_version").getInt();
    };
    {
        SQLite::Database sql(db.path, SQLite::OPEN_READWRITE);
        for (const char* table :
             {"tournament SET options = replace(options", "bots SET command = replace(command"})
            sql.exec(fmt::format("UPDATE {}, '@TESTS@', '{}')", table, BG_TESTS_DIR));
    }
    REQUIRE(version() == 1);

    const Run standings = run({tournament, "standings", "--db", db.path});
    INFO(standings.err);
    CHECK(standings.status == 0);
    CHECK(standings.out.find("2 of 4 games done") != std::string::npos);
    CHECK(version() == 1);  // read, not written
    for (const auto& game : games_of(db.path))
        for (const auto& seat : game["seats"])
            CHECK((!seat.contains("cpu_ms") || seat["cpu_ms"].is_null()));

    // Resumed, it is upgraded, and plays on as it was played: per-process limits (its options
    // say nothing of cgroups), so its seats' usage stays uncounted.
    const Run resumed = run({tournament, "resume", "--db", db.path});
    INFO(resumed.err);
    CHECK(resumed.status == 0);
    CHECK(version() == 5);
    const json games = games_of(db.path);
    CHECK(count_state(games, "done") == 4);
    for (const auto& game : games) {
        const bool old = game["id"].get<int>() <= 2;
        // The race: unknown before schema 4, said after; and no wait for a CPU counted without
        // cgroups, which says why (so the game's contention is not known).
        CHECK(game["race_ms"].is_null() == old);
        CHECK(game["contended"].is_null());
        CHECK(game["counts"] == true);
        for (const auto& seat : game["seats"]) {
            CHECK(seat["cpu_ms"].is_null());
            // Which game of its process each seat's was: said from schema 3, and before it the
            // first (no process was kept then); whether it was a restart, unknown before.
            CHECK(seat["process_game"] == 1);
            CHECK(seat["restarted"].is_null() == old);
            CHECK(seat["cpu_wait_ms"].is_null());
            CHECK(seat["cpu_wait_note"].is_null() == old);
        }
    }
}

TEST_CASE(
    "tournament: a database of schema version 3 is read as it is, its players' codes read from "
    "their sentences, and resumed into version 5",
    "[e2e][tournament][out_code]") {
    // A schema 3 database, made as 1.3.0 and 1.4.0 made them: one of this version, half played,
    // with the columns of versions 4 and 5 taken out. b's first peel is illegal.
    ScratchDb db("schema-3");
    const Run made =
        run(run_command(db.path, {"a=" + bot("sleep", "s3a"), "b=" + bot("bad-word", "s3b")},
                        {"--deals", "1", "--concurrency", "1", "--unfair-per-process-limits"}));
    INFO(made.err);
    REQUIRE(made.status == 0);
    const auto version = [&] {
        SQLite::Database sql(db.path, SQLite::OPEN_READONLY);
        return sql.execAndGet("PRAGMA user_version").getInt();
    };
    {
        SQLite::Database sql(db.path, SQLite::OPEN_READWRITE);
        sql.exec("UPDATE games SET state = 'pending', end = NULL WHERE id = 2");
        for (const char* column : {"games DROP COLUMN race_ms", "games DROP COLUMN contended",
                                   "games DROP COLUMN replay_of", "seats DROP COLUMN cpu_wait_ms",
                                   "seats DROP COLUMN cpu_wait_note", "seats DROP COLUMN out_code",
                                   "seats DROP COLUMN hand", "seats DROP COLUMN link_connections",
                                   "seats DROP COLUMN link_pings", "seats DROP COLUMN link_rtt_ms",
                                   "seats DROP COLUMN link_rtt_max_ms"})
            sql.exec(std::string("ALTER TABLE ") + column);
        sql.exec("PRAGMA user_version = 3");
    }
    const Run standings = run({tournament, "standings", "--db", db.path, "--json"});
    INFO(standings.err);
    REQUIRE(standings.status == 0);
    CHECK(json::parse(standings.out)["done"] == 1);
    CHECK(json::parse(standings.out)["contended"] == 0);
    CHECK(version() == 3);  // read, not written
    CHECK(games_of(db.path)[0]["race_ms"].is_null());
    // b's code, from its sentence; counted by it.
    const auto b_seat = [](const json& game) {
        return game["seats"][game["seats"][0]["bot"] == "b" ? 0 : 1];
    };
    CHECK(b_seat(games_of(db.path)[0])["code"] == "illegal_peel");
    CHECK(b_seat(games_of(db.path)[0])["outcome"] == "disqualified");
    for (const auto& bot : json::parse(standings.out)["bots"])
        if (bot["name"] == "b")
            CHECK(bot["out_codes"] == json({{"illegal_peel", 1}}));
    // A done game and a pending one, each row with every column.
    const Run csv = run({tournament, "games", "--db", db.path, "--csv"});
    REQUIRE(csv.status == 0);
    check_csv_columns(csv.out);

    const Run resumed = run({tournament, "resume", "--db", db.path, "--replay-contended"});
    INFO(resumed.err);
    CHECK(resumed.status == 0);
    CHECK(resumed.err.find("0 contended games will be played again") != std::string::npos);
    CHECK(version() == 5);
    const json games = games_of(db.path);
    REQUIRE(games.size() == 2);
    CHECK(games[0]["race_ms"].is_null());
    CHECK(games[1]["race_ms"].is_number());
    CHECK(games[1]["seats"][0]["cpu_wait_note"].is_string());
    // The one played before, still from its sentence; the one played now, its own code.
    CHECK(b_seat(games[0])["code"] == "illegal_peel");
    CHECK(b_seat(games[1])["code"] == "illegal_peel");
    SQLite::Database sql(db.path, SQLite::OPEN_READONLY);
    CHECK(sql.execAndGet("SELECT count(*) FROM seats WHERE out_code = 'illegal_peel'").getInt() ==
          1);
}

TEST_CASE(
    "tournament: one begun on an earlier host's built-in word list resumes on that list, by "
    "its fingerprint",
    "[e2e][tournament]") {
    // Played to its end by host 1.0.0, whose built-in list was wamerican-large's lower-case
    // lines: its options record the list by fingerprint alone.
    ScratchDb db("wamerican-default");
    std::filesystem::copy_file(BG_TESTS_DIR "/data/tournament-wamerican-default.db", db.path);
    {
        SQLite::Database sql(db.path, SQLite::OPEN_READWRITE);
        for (const char* table :
             {"tournament SET options = replace(options", "bots SET command = replace(command"})
            sql.exec(fmt::format("UPDATE {}, '@TESTS@', '{}')", table, BG_TESTS_DIR));
    }
    const auto options = [&] {
        SQLite::Database sql(db.path, SQLite::OPEN_READONLY);
        return json::parse(sql.execAndGet("SELECT options FROM tournament").getString());
    };
    CHECK(options()["dictionary"] == "");
    CHECK(options()["dictionary_fingerprint"] == "30164250aa211910");
    const Run resumed = run({tournament, "resume", "--db", db.path, "--json"});
    INFO(resumed.err);
    CHECK(resumed.status == 0);
    CHECK(json::parse(resumed.out)["done"] == 6);

    // A built-in list no host had: named by its fingerprint, and nothing is played.
    {
        SQLite::Database sql(db.path, SQLite::OPEN_READWRITE);
        sql.exec(
            "UPDATE tournament SET options = replace(options, '30164250aa211910', "
            "'00000000000000ff')");
    }
    const Run unknown = run({tournament, "resume", "--db", db.path});
    CHECK(unknown.status == 1);
    CHECK(unknown.err.find("built-in word list (fingerprint 00000000000000ff) that is neither "
                           "this host's (scowl-80)") != std::string::npos);

    // A new tournament names its list.
    const ScratchDb made("named-list");
    const Run run_new =
        run({tournament, "run", "--db", made.path, "--bot", "a=" + bot("staircase", "x"), "--bot",
             "b=" + bot("staircase", "x"), "--json"},
            120);
    INFO(run_new.err);
    REQUIRE(run_new.status == 0);
    SQLite::Database sql(made.path, SQLite::OPEN_READONLY);
    const json made_options =
        json::parse(sql.execAndGet("SELECT options FROM tournament").getString());
    CHECK(made_options["dictionary_name"] == "scowl-80");
    CHECK(made_options["dictionary_fingerprint"] == "13b498d63183a9a9");
}

TEST_CASE("versions: every program says one version, and a log, a result and a database name it",
          "[e2e][versions]") {
    const std::string version(bg::version());
    REQUIRE(version.find('.') != std::string::npos);
    for (const auto& [program, name] : std::vector<std::pair<std::string, std::string>>{
             {host, "bananagrams-host"},
             {tournament, "bananagrams-tournament"},
             {reference_bot, "bananagrams-reference-bot"}}) {
        const Run r = run({program, "--version"});
        CHECK(r.status == 0);
        CHECK(r.out == name + " " + version + "\n");
    }

    const std::string log = scratch("version.log");
    const Game game =
        play({bot("staircase", "version"), bot("staircase", "version")}, {"--log", log});
    CHECK(game.result["host_version"] == version);
    const auto records = log_records(log);
    REQUIRE_FALSE(records.empty());
    CHECK(records.front()["start"]["host_version"] == version);
    CHECK(records.back()["result"]["host_version"] == version);
    std::remove(log.c_str());

    ScratchDb db("version");
    const Run played =
        run(run_command(db.path,
                        {"a=" + bot("staircase", "version"), "b=" + bot("staircase", "version")},
                        {"--deals", "1"}),
            120);
    INFO(played.err);
    REQUIRE(played.status == 0);
    const json games = games_of(db.path);
    REQUIRE(games.size() == 2);
    for (const auto& g : games)
        CHECK(g["host_version"] == version);
    SQLite::Database file(db.path, SQLite::OPEN_READONLY);
    CHECK(file.execAndGet("SELECT COUNT(*) FROM games WHERE host_version = '" + version + "'")
              .getInt() == 2);
}
