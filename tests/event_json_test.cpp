#include "record/event_json.hpp"
#include "record/json_value.hpp"

#include <catch2/catch.hpp>

using namespace bg;

TEST_CASE("event json: every input and decision round-trips", "[event_json]") {
    const std::vector<Input> inputs = {input::Hello{0, 2},
                                       input::Peel{1, "001001B", 7},
                                       input::Ready{1},
                                       input::Peel{0, "001001A", {}},
                                       input::Dump{2, 'Q'},
                                       input::Violation{1, "x"},
                                       input::Gone{0, OutCode::exited, "exited"},
                                       input::ReadyTimeout{},
                                       input::GameTimeout{},
                                       input::Abort{"SIGINT"}};
    for (const auto& in : inputs) {
        INFO(to_json(in).dump());
        const auto back = input_from_json(to_json(in));
        REQUIRE(std::holds_alternative<Input>(back));
        CHECK(std::get<Input>(back) == in);
    }
    const std::vector<Decision> decisions = {
        decision::Greeted{1, 2},
        decision::HandsDealt{{"AB", "", "CD"}},
        decision::PeelAccepted{1, 3, "A.B", 40},
        decision::PeelStale{0, "XY", 2, 4},
        decision::Dumped{0, 'Q', "AEZ"},
        decision::DumpRefused{1, 'K', 2},
        decision::Disqualified{2, OutCode::illegal_peel, "why"},
        decision::GameOver{End::bananas, 1},
        decision::GameOver{End::aborted, std::nullopt}};
    for (const auto& d : decisions) {
        INFO(to_json(d).dump());
        const auto back = decision_from_json(to_json(d));
        REQUIRE(std::holds_alternative<Decision>(back));
        CHECK(std::get<Decision>(back) == d);
    }
}

TEST_CASE("event json: records that are not exactly what the host writes are refused",
          "[event_json]") {
    using nlohmann::json;
    const auto input_error = [](const json& j) {
        return std::get<std::string>(input_from_json(j));
    };
    const auto decision_error = [](const json& j) {
        return std::get<std::string>(decision_from_json(j));
    };
    CHECK(input_error(json::array()) == "not an object");
    CHECK(input_error({{"type", "jump"}}) == "unknown input type \"jump\"");
    CHECK(input_error({{"type", "ready"}}) == "no \"player\"");
    CHECK(input_error({{"type", "ready"}, {"player", "one"}}) == "\"player\" has the wrong type");
    CHECK(input_error({{"type", "ready"}, {"player", 1}, {"extra", 2}}) ==
          "3 fields where 2 were expected");
    CHECK(input_error({{"type", "dump"}, {"player", 1}, {"letter", "QQ"}}) ==
          "\"letter\" is not one letter");
    CHECK(decision_error({{"type", "game_over"}, {"end", "draw"}, {"winner", nullptr}}) ==
          "unknown end \"draw\"");
    CHECK(decision_error({{"kind", "x"}}) == "no \"type\"");
}

TEST_CASE("event json: any bytes a player sends are logged without loss", "[event_json]") {
    const std::string raw = std::string("002001A") + '\xff' + std::string(1, '\0') + "\x1b";
    const input::Peel peel{0, raw, {}};
    const nlohmann::json record = to_json(Input{peel});
    CHECK(record["grid"]["hex"] == "30303230303141ff001b");
    CHECK_NOTHROW(record.dump());
    const auto back = input_from_json(nlohmann::json::parse(record.dump()));
    REQUIRE(std::holds_alternative<Input>(back));
    CHECK(std::get<Input>(back) == Input{peel});

    // UTF-8 stays a string; hex holding UTF-8 is a second spelling of it, and refused.
    CHECK(bytes_to_json("caf\xc3\xa9") == "caf\xc3\xa9");
    CHECK(bytes_from_json(nlohmann::json{{"hex", "41"}}) == std::nullopt);
    CHECK(bytes_from_json(nlohmann::json{{"hex", "4"}}) == std::nullopt);
    CHECK(bytes_from_json(nlohmann::json{{"hex", "zz"}}) == std::nullopt);
    CHECK(bytes_from_json(nlohmann::json{{"hex", "ff"}}) == std::string("\xff"));
}

TEST_CASE("event json: a usage record round-trips, and a bad one is refused", "[event_json]") {
    // Log version 7: each with its wait for a CPU (none says why).
    const std::string why = "not counted";
    for (const auto& usage : {PlayerUsage{1, 2, {}, 0, ""}, PlayerUsage{{}, {}, {}, {}, why},
                              PlayerUsage{{}, 5, {}, 7'000'000, "at least: ..."},
                              PlayerUsage{{}, {}, LinkUsage{2, 9, 0.25, 1.5}, {}, why},
                              PlayerUsage{{}, {}, LinkUsage{1, 0, {}, {}}, {}, why}}) {
        const auto json = usage_json(3, usage);
        const auto back = usage_from_json(json);
        REQUIRE(std::holds_alternative<std::pair<PlayerId, PlayerUsage>>(back));
        CHECK(std::get<std::pair<PlayerId, PlayerUsage>>(back) == std::pair{3, usage});
    }
    // Older versions, without what they did not have.
    for (const int version : {2, 6}) {
        PlayerUsage usage{1, 2,
                          version >= 6 ? std::optional(LinkUsage{1, 1, 0.5, 0.5}) : std::nullopt};
        const auto json = usage_json(0, usage, version);
        CHECK_FALSE(json.contains("cpu_wait_ns"));
        const auto back = usage_from_json(json, version);
        REQUIRE(std::holds_alternative<std::pair<PlayerId, PlayerUsage>>(back));
        CHECK(std::get<std::pair<PlayerId, PlayerUsage>>(back).second == usage);
    }
    for (
        const char* bad :
        {R"({"player":0,"cpu_ns":-1,"memory_peak_bytes":null})",
         R"({"player":0,"cpu_ns":1.5,"memory_peak_bytes":null})", R"({"player":0,"cpu_ns":1})",
         R"({"cpu_ns":1,"memory_peak_bytes":1,"x":0})",
         R"({"player":0,"cpu_ns":1,"memory_peak_bytes":"2"})",
         R"({"player":0,"cpu_ns":1,"memory_peak_bytes":2,"remote":{"connections":1}})",
         R"({"player":0,"cpu_ns":1,"memory_peak_bytes":2,"remote":{"connections":1,"pings":1,"rtt_ms":-1,"rtt_max_ms":null}})"}) {
        INFO(bad);
        for (const int version : {2, 6, 7})
            CHECK(std::holds_alternative<std::string>(
                usage_from_json(nlohmann::json::parse(bad), version)));
    }
}
