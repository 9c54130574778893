// record/replay across the log's versions: a version 1 log (before the players' cgroups) still
// replays to the result it holds; a version 2 log holds what each player used before its
// result, and a log that lacks it, or a version 1 log that has it, is refused.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <fmt/format.h>

#include "record/event_json.hpp"
#include "record/event_log.hpp"
#include "record/replay.hpp"
#include "referee/referee.hpp"
#include "support/staircase.hpp"
#include "wordlist/default_wordlist.hpp"

using namespace bg;

namespace {

// A log replayed: its result as the log's version writes it, or what is wrong with the log. A
// game judged by the built-in list (the bundled bots' logs) is judged by it again; any other by
// the two-letter words the tests play with.
std::variant<nlohmann::json, std::string> replay(const std::string& text) {
    std::istringstream in(text);
    auto replayed =
        replay_log(in, [](const GameSetup& setup) -> std::variant<const Dictionary*, std::string> {
            if (setup.dictionary.empty() &&
                setup.dictionary_fingerprint == default_wordlist().stats().fingerprint)
                return &default_wordlist();
            return &two_letter_words();
        });
    if (auto* error = std::get_if<std::string>(&replayed))
        return *error;
    const auto& [result, version] = std::get<Replayed>(replayed);
    return to_json(result, version);
}

// The log a referee of `setup` (two players, seed 3, one set, on two-letter words) writes as
// `play` drives it from its start.
std::string written_log(const GameSetup& setup, const std::function<void(Referee&)>& play) {
    char* text = nullptr;
    std::size_t size = 0;
    std::FILE* file = ::open_memstream(&text, &size);
    {
        EventLog log(file);
        Referee referee(setup, two_letter_words(), log);
        referee.start(0);
        play(referee);
    }
    std::fclose(file);
    std::string log(text, size);
    std::free(text);
    return log;
}

GameSetup two_players(int log_version) {
    GameSetup setup;
    setup.version = log_version;
    setup.game = RulesConfig{3, 2, 1};
    setup.commands = {"one", "two"};
    return setup;
}

// A log of a short game (version 2 unless told): player 1 says `hello` (r, or a v2 handshake
// and R), player 2 r, then player 2 leaves and player 1 has won. A version 1 log's host spoke
// v002 at most.
std::string game_log(const std::vector<PlayerUsage>& usage, int log_version = 2,
                     const std::string& hello = "r") {
    GameSetup setup = two_players(log_version);
    if (log_version == 1)
        setup.game.newest_protocol = protocol_v2;
    return written_log(setup, [&](Referee& referee) {
        referee.take(arrival::Output{0, hello}, 1);
        referee.take(arrival::Output{1, "r"}, 2);
        referee.take(arrival::Exited{1, 0, 9}, 3);
        REQUIRE(referee.over());
        referee.finish(usage, 4);
    });
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines)
        text += line + "\n";
    return text;
}

}  // namespace

TEST_CASE(
    "replay: every stored log replays to the result it holds, which reads into the typed result "
    "and back unchanged",
    "[replay][result]") {
    int logs = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(BG_SOURCE_DIR "/fuzz/corpus/event_log")) {
        INFO(entry.path());
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        const auto lines = lines_of(text.str());
        const int version = nlohmann::json::parse(lines.front())["start"]["version"].get<int>();
        const nlohmann::json logged = nlohmann::json::parse(lines.back())["result"];
        const auto replayed = replay(text.str());
        INFO(
            (std::holds_alternative<std::string>(replayed) ? std::get<std::string>(replayed) : ""));
        REQUIRE(std::holds_alternative<nlohmann::json>(replayed));
        CHECK(std::get<nlohmann::json>(replayed) == logged);
        const auto typed = result_from_json(logged, version);
        INFO((std::holds_alternative<std::string>(typed) ? std::get<std::string>(typed) : ""));
        REQUIRE(std::holds_alternative<GameResult>(typed));
        CHECK(to_json(std::get<GameResult>(typed), version) == logged);
        // Read once more in the newest version's shape, and back: the same result.
        const auto newest = result_from_json(to_json(std::get<GameResult>(typed)));
        REQUIRE(std::holds_alternative<GameResult>(newest));
        CHECK(to_json(std::get<GameResult>(newest), version) == logged);
        ++logs;
    }
    CHECK(logs >= 3);
}

TEST_CASE("replay: a version 1 log replays to the result it holds", "[replay]") {
    std::ifstream in(BG_SOURCE_DIR "/fuzz/corpus/event_log/game.jsonl");
    std::stringstream text;
    text << in.rdbuf();
    const auto lines = lines_of(text.str());
    REQUIRE(lines.front().find("\"version\":1") != std::string::npos);
    const auto replayed = replay(text.str());
    INFO((std::holds_alternative<std::string>(replayed) ? std::get<std::string>(replayed) : ""));
    REQUIRE(std::holds_alternative<nlohmann::json>(replayed));
    const auto& players = std::get<nlohmann::json>(replayed)["players"];
    CHECK_FALSE(players[0].contains("cpu_ms"));
    CHECK(std::get<nlohmann::json>(replayed) == nlohmann::json::parse(lines.back())["result"]);

    // A usage record has no place in it.
    auto with_usage = lines;
    const auto t = nlohmann::json::parse(lines.back())["t"].get<std::uint64_t>();
    with_usage.insert(with_usage.end() - 1,
                      R"({"seq":8,"t":)" + std::to_string(t) +
                          R"(,"usage":{"player":0,"cpu_ns":1,"memory_peak_bytes":2}})");
    auto& last = with_usage.back();
    last.replace(last.find("\"seq\":8"), 7, "\"seq\":9");
    const auto refused = replay(joined(with_usage));
    REQUIRE(std::holds_alternative<std::string>(refused));
    INFO(std::get<std::string>(refused));
    CHECK(std::get<std::string>(refused).find("a usage record in a log of version 1") !=
          std::string::npos);
}

TEST_CASE("replay: a version 2 log holds what each player used, before its result", "[replay]") {
    const std::string log = game_log({PlayerUsage{12'345'678, 3 << 20, {}}, PlayerUsage{}});
    auto lines = lines_of(log);
    CHECK(lines.front().find("\"version\":2") != std::string::npos);
    REQUIRE(lines.size() >= 3);
    CHECK(lines[lines.size() - 3].find("\"usage\"") != std::string::npos);
    CHECK(lines[lines.size() - 2].find("\"usage\"") != std::string::npos);
    const auto replayed = replay(log);
    REQUIRE(std::holds_alternative<nlohmann::json>(replayed));
    const auto& players = std::get<nlohmann::json>(replayed)["players"];
    CHECK(players[0]["cpu_ms"] == 12.345678);
    CHECK(players[0]["memory_peak_bytes"] == 3 << 20);
    CHECK(players[1]["cpu_ms"].is_null());

    // Edited usage: the logged result no longer matches.
    auto edited = lines;
    auto& usage = edited[edited.size() - 3];
    usage.replace(usage.find("12345678"), 8, "12345679");
    const auto differs = replay(joined(edited));
    REQUIRE(std::holds_alternative<std::string>(differs));
    CHECK(std::get<std::string>(differs).find("differs") != std::string::npos);

    // A result without a player's usage is refused (its sequence numbers made to follow on).
    auto missing = lines;
    missing.erase(missing.end() - 2);
    auto& result = missing.back();
    const auto seq = result.find("\"seq\":");
    const auto end = result.find(',', seq);
    result.replace(seq, end - seq, "\"seq\":" + std::to_string(missing.size() - 1));
    const auto lacking = replay(joined(missing));
    REQUIRE(std::holds_alternative<std::string>(lacking));
    CHECK(std::get<std::string>(lacking).find("the result before player 1's usage") !=
          std::string::npos);
}

TEST_CASE("replay: a log answers a later handshake in the newest version its host spoke",
          "[replay][versions]") {
    // A version 1 log's host spoke v002 at most: a player that asked for v003 was answered
    // V002., and replays so. A version 2 log says which version its host spoke up to.
    for (const int log_version : {1, 2}) {
        const std::string log = game_log({PlayerUsage{}, PlayerUsage{}}, log_version, "v003R");
        INFO(log);
        const auto lines = lines_of(log);
        CHECK((lines.front().find(fmt::format("\"newest_protocol\":{}", protocol_newest)) !=
               std::string::npos) == (log_version == 2));
        const auto replayed = replay(log);
        INFO(
            (std::holds_alternative<std::string>(replayed) ? std::get<std::string>(replayed) : ""));
        REQUIRE(std::holds_alternative<nlohmann::json>(replayed));
        CHECK(std::get<nlohmann::json>(replayed)["players"][0]["protocol"] ==
              (log_version == 1 ? "v2" : "v3"));
        CHECK(std::get<nlohmann::json>(replayed) == nlohmann::json::parse(lines.back())["result"]);
    }
    // A log from a host that spoke a version this one does not know is refused, not misread.
    auto lines = lines_of(game_log({PlayerUsage{}, PlayerUsage{}}));
    const auto at = lines.front().find(fmt::format("\"newest_protocol\":{}", protocol_newest));
    REQUIRE(at != std::string::npos);
    lines.front().replace(at, 19, "\"newest_protocol\":9");
    const auto refused = replay(joined(lines));
    REQUIRE(std::holds_alternative<std::string>(refused));
    CHECK(std::get<std::string>(refused).find("up to v009") != std::string::npos);
}

TEST_CASE("replay: a version 5 log of a continuing v004 player replays alone", "[replay][v004]") {
    GameSetup setup = two_players(5);
    setup.game.continuing = {Continuing{protocol_v4, 7}, std::nullopt};
    const std::string log = written_log(setup, [](Referee& referee) {
        // A dump its game before sent after E, ignored; then its R.
        referee.take(arrival::Output{0, "DAR"}, 1);
        referee.take(arrival::Output{1, "r"}, 2);
        referee.take(arrival::Exited{1, 0, 9}, 3);
        REQUIRE(referee.over());
        referee.finish({}, 4);
    });
    const auto lines = lines_of(log);
    INFO(log);
    const auto start = nlohmann::json::parse(lines.front())["start"];
    CHECK(start["version"] == 5);
    CHECK(start["continuing"] ==
          nlohmann::json::parse(R"([{"version": 4, "process_game": 7}, null])"));
    const auto replayed = replay(log);
    INFO((std::holds_alternative<std::string>(replayed) ? std::get<std::string>(replayed) : ""));
    REQUIRE(std::holds_alternative<nlohmann::json>(replayed));
    const auto& result = std::get<nlohmann::json>(replayed);
    CHECK(result == nlohmann::json::parse(lines.back())["result"]);
    CHECK(result["winner"] == 0);
    CHECK(result["players"][0]["process_game"] == 7);
    CHECK(result["players"][0]["protocol"] == "v4");
    CHECK(result["players"][1]["process_game"] == 1);
    // A start record whose continuing players do not match its players is refused.
    auto bad = lines;
    const auto at = bad.front().find(",null]");
    REQUIRE(at != std::string::npos);
    bad.front().replace(at, 6, "]");
    const auto refused = replay(joined(bad));
    REQUIRE(std::holds_alternative<std::string>(refused));
    CHECK(std::get<std::string>(refused).find("one thing a player") != std::string::npos);
}

TEST_CASE(
    "replay: a version 6 log's notes and remote seats replay, and a note in an older log is "
    "refused",
    "[replay][remote]") {
    for (const int version : {6, 5}) {
        GameSetup setup = two_players(version);
        setup.commands = {"remote:", "two"};
        const std::string log = written_log(setup, [](Referee& referee) {
            referee.take(arrival::Note{0, "connected"}, 1);
            referee.take(arrival::Note{-1, "refused a connection from 127.0.0.1: no token (401)"},
                         1);
            referee.take(arrival::Output{0, "r"}, 2);
            referee.take(arrival::Output{1, "r"}, 2);
            referee.take(arrival::Exited{1, 0, 9}, 3);
            REQUIRE(referee.over());
            referee.finish({PlayerUsage{{}, {}, LinkUsage{2, 5, 0.5, 3.25}}, PlayerUsage{}}, 4);
        });
        INFO(log);
        const auto lines = lines_of(log);
        const long notes = std::count_if(lines.begin(), lines.end(), [](const std::string& l) {
            return l.find("\"note\"") != std::string::npos;
        });
        // An older log's referee writes no notes: one is put in by hand, and refused.
        CHECK(notes == (version == 6 ? 2 : 0));
        const auto result = nlohmann::json::parse(lines.back())["result"];
        if (version == 6) {
            CHECK(result["players"][0]["remote"] ==
                  nlohmann::json::parse(
                      R"({"connections": 2, "pings": 5, "rtt_ms": 0.5, "rtt_max_ms": 3.25})"));
            CHECK(result["players"][1]["remote"].is_null());
            const auto replayed = replay(log);
            REQUIRE(std::holds_alternative<nlohmann::json>(replayed));
            CHECK(std::get<nlohmann::json>(replayed) == result);
        } else {
            CHECK_FALSE(result["players"][0].contains("remote"));
            // A note after the start record, renumbered: not a record of version 5.
            std::string edited = lines[0] + "\n" +
                                 R"({"seq":1,"t":1,"note":{"player":0,"what":"connected"}})" + "\n";
            const auto replayed = replay(edited);
            REQUIRE(std::holds_alternative<std::string>(replayed));
            CHECK(std::get<std::string>(replayed).find("a note record in a log of version 5") !=
                  std::string::npos);
        }
    }
}

TEST_CASE(
    "replay: a version 7 log holds each player's wait for a CPU and the race, and says whether "
    "it was contended",
    "[replay][cpu_wait]") {
    // The race is from the input that dealt (the second ready, at 1 ms) to the one that ended the
    // game (at 101 ms): 100 ms, in which 10 ms (10%) is the most a player may wait.
    const auto log_of = [](std::vector<PlayerUsage> usage) {
        return written_log(two_players(7), [&](Referee& referee) {
            referee.take(arrival::Output{0, "r"}, 500'000);
            referee.take(arrival::Output{1, "r"}, 1'000'000);
            REQUIRE(referee.game().dealt());
            referee.take(arrival::Exited{1, 0, 9}, 101'000'000);
            REQUIRE(referee.over());
            CHECK(referee.race_ns() == 100'000'000);
            referee.finish(usage, 102'000'000);
        });
    };
    const auto waited = [](std::optional<std::uint64_t> ns, std::string note = "") {
        return PlayerUsage{1, 2, {}, ns, std::move(note)};
    };
    struct Case {
        std::vector<PlayerUsage> usage;
        nlohmann::json contended;
    };
    for (const auto& [usage, contended] : std::vector<Case>{
             {{waited(11'000'000), waited(0)}, true},
             {{waited(9'000'000), waited(9'500'000)}, false},
             // A lower bound above the bar says so; below it, it cannot say.
             {{waited(12'000'000, "at least: ..."), waited(0)}, true},
             {{waited(1'000'000, "at least: ..."), waited(0)}, nullptr},
             {{waited(std::nullopt, "a remote player"), waited(0)}, nullptr},
         }) {
        const std::string log = log_of(usage);
        INFO(log);
        const auto result = nlohmann::json::parse(lines_of(log).back())["result"];
        CHECK(result["race_ms"] == 100.0);
        CHECK(result["contended"] == contended);
        CHECK(result["players"][0]["cpu_wait_ms"] ==
              (usage[0].cpu_wait_ns ? nlohmann::json(*usage[0].cpu_wait_ns / 1e6) : nullptr));
        CHECK(result["players"][0]["cpu_wait_note"] ==
              (usage[0].cpu_wait_note.empty() ? nlohmann::json(nullptr)
                                              : nlohmann::json(usage[0].cpu_wait_note)));
        const auto replayed = replay(log);
        REQUIRE(std::holds_alternative<nlohmann::json>(replayed));
        CHECK(std::get<nlohmann::json>(replayed) == result);
        // The table people read: each wait (a lower bound marked), and a contended race said.
        const auto typed = result_from_json(result, 7);
        REQUIRE(std::holds_alternative<GameResult>(typed));
        const std::string table = result_table(std::get<GameResult>(typed));
        CHECK_THAT(table, Catch::Contains("wait ms"));
        CHECK((table.find("(contended:") != std::string::npos) == (contended == true));
        CHECK((table.find(">=") != std::string::npos) ==
              (usage[0].cpu_wait_ns && !usage[0].cpu_wait_note.empty()));
    }

    // The race's times are the log's: a deal's record moved later makes a shorter race, which
    // the logged result no longer matches.
    auto lines = lines_of(log_of({waited(11'000'000), waited(0)}));
    for (auto& line : lines)
        if (const auto at = line.find("\"t\":1000000}"); at != std::string::npos)
            line.replace(at, 12, "\"t\":9000000}");
    const auto moved = replay(joined(lines));
    REQUIRE(std::holds_alternative<std::string>(moved));
    CHECK_THAT(std::get<std::string>(moved), Catch::Contains("differs"));

    // A missing figure that does not say why, and a version 6 usage record with a wait, are
    // refused.
    for (const auto& [version, usage] : std::vector<std::pair<int, const char*>>{
             {7, R"({"player":0,"cpu_ns":1,"memory_peak_bytes":2,"remote":null,)"
                 R"("cpu_wait_ns":null,"cpu_wait_note":null})"},
             {6, R"({"player":0,"cpu_ns":1,"memory_peak_bytes":2,"remote":null,)"
                 R"("cpu_wait_ns":5,"cpu_wait_note":null})"}}) {
        INFO(usage);
        CHECK(std::holds_alternative<std::string>(
            usage_from_json(nlohmann::json::parse(usage), version)));
    }
    // An older log's result has none of it.
    const auto v6 = nlohmann::json::parse(lines_of(game_log({}, 6)).back())["result"];
    CHECK_FALSE(v6.contains("race_ms"));
    CHECK_FALSE(v6["players"][0].contains("cpu_wait_ms"));
}

TEST_CASE(
    "replay: a version 8 log names a byte of a reason in words, an older one by its code, and "
    "each replays in its own words",
    "[replay]") {
    for (const int version : {7, 8}) {
        // Player 1 peels a grid whose one cell is a newline: out, and player 2 has won. A host
        // that wrote version 7 named the byte by its code.
        GameSetup setup = two_players(version);
        if (version < 8)
            setup.game.byte_names = ByteNames::codes;
        const std::string log = written_log(setup, [](Referee& referee) {
            referee.take(arrival::Output{0, "r"}, 1);
            referee.take(arrival::Output{1, "r"}, 2);
            referee.take(arrival::Output{0, "p001001\n"}, 3);
            REQUIRE(referee.over());
            referee.finish({PlayerUsage{1, 2, {}, 0, ""}, PlayerUsage{1, 2, {}, 0, ""}}, 4);
        });
        INFO(log);
        const auto result = nlohmann::json::parse(lines_of(log).back())["result"];
        CHECK(result["players"][0]["reason"] ==
              fmt::format("illegal peel: grid cell at column 0, row 0 is {}, not A-Z or '.'",
                          version >= 8 ? "a newline (0x0a)" : "0x0a"));
        const auto replayed = replay(log);
        REQUIRE(std::holds_alternative<nlohmann::json>(replayed));
        CHECK(std::get<nlohmann::json>(replayed) == result);
    }
}
