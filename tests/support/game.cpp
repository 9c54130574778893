#include "tests/support/game.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

namespace bg::test {

using nlohmann::json;

std::string python_bot(const std::string& name, const std::string& mode, const std::string& extra) {
    return "python3 " BG_TESTS_DIR "/bots/" + name + ".py " + mode +
           (extra.empty() ? "" : " " + extra);
}

std::string scratch(const std::string& name) {
    return "e2e-" + std::to_string(getpid()) + "-" + name;
}

Game play(const std::vector<std::string>& players, std::vector<std::string> options,
          const std::vector<std::string>& prefix) {
    std::vector<std::string> argv = prefix;
    argv.insert(argv.end(), {host, "--json"});
    // Unless the test says otherwise: the two-letter list, a fixed deal, a short grace, and a
    // ready timeout that is only a safety net (a test whose player must be out for not being
    // ready sets its own).
    const auto unless_given = [&](const std::string& option, const std::string& value) {
        if (std::find(options.begin(), options.end(), option) == options.end())
            options.insert(options.end(), {option, value});
    };
    unless_given("--dict", two_letters);
    unless_given("--seed", "7");
    unless_given("--kill-grace", "300");
    unless_given("--ready-timeout", "30");
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), players.begin(), players.end());
    Game game{run(argv), {}};
    INFO("stderr: " << game.run.err);
    game.result = json::parse(game.run.out, nullptr, false);
    REQUIRE_FALSE(game.result.is_discarded());
    CHECK(game.run.err.find("libuv handles left open") == std::string::npos);
    return game;
}

std::vector<std::string> player_lines(const Run& run, int player, const std::string& marker) {
    std::vector<std::string> lines;
    const std::string prefix = "[player " + std::to_string(player + 1) + "] " + marker;
    std::istringstream in(run.err);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0)
            lines.push_back(line.substr(prefix.size()));
    return lines;
}

std::string reason(const json& result, int player) {
    const auto& r = result["players"][player]["reason"];
    return r.is_string() ? r.get<std::string>() : "";
}

std::vector<json> log_records(const std::string& path) {
    std::vector<json> records;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        records.push_back(json::parse(line));
    return records;
}

int count_decisions(const std::vector<json>& records, const std::string& type, int player) {
    int n = 0;
    for (const auto& r : records)
        if (r.contains("decision") && r["decision"]["type"] == type &&
            r["decision"].value("player", -1) == player)
            ++n;
    return n;
}

}  // namespace bg::test
