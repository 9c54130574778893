// host --replay LOG: a game rebuilt from its event log alone, spawning nothing; and the result,
// live lines and page that a game and a replay both print.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>

#include "core/text.hpp"
#include "host/host.hpp"
#include "match/word_list.hpp"
#include "record/replay.hpp"
#include "record/result.hpp"
#include "viewer/pages.hpp"

namespace bg::host {

void print_result(const GameResult& result, bool json, int version) {
    if (json)
        out.write(to_json(result, version).dump() + "\n");
    else
        out.write(result_table(result));
}

void print_live_line(double seconds, const std::string& line) {
    err.write(fmt::format("[{:8.3f}s] {}\n", seconds, line));
}

// The game's page (viewer/), from its log's records; false (and said why) when it cannot be had.
bool write_game_page(std::istream& log, const std::string& log_name, const std::string& path) {
    auto records = viewer::read_records(log);
    if (auto* error = std::get_if<std::string>(&records)) {
        log::error("{}: {}", escape_for_terminal(log_name), *error);
        return false;
    }
    return write_game_page(std::get<std::vector<nlohmann::json>>(records), path);
}

bool write_game_page(const std::vector<nlohmann::json>& records, const std::string& path) {
    const std::string page = viewer::game_page(records);
    std::FILE* file = std::fopen(path.c_str(), "we");
    const bool written = file && std::fwrite(page.data(), 1, page.size(), file) == page.size();
    const bool closed = file && std::fclose(file) == 0;
    if (!written || !closed) {
        log::error("cannot write the page {}: {}", escape_for_terminal(path), std::strerror(errno));
        return false;
    }
    return true;
}

int replay(const std::string& path, bool json, bool quiet, const std::string& html) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        log::error("cannot open log {}: {}", escape_for_terminal(path), std::strerror(errno));
        return exit_failed;
    }
    std::optional<Dictionary> loaded;
    ReplayLines lines;
    if (!quiet)
        lines = [](std::uint64_t t, const std::string& line) {
            print_live_line(static_cast<double>(t) / 1e9, line);
        };
    auto replayed = replay_log(in, host_dictionaries(loaded), lines);
    if (auto* error = std::get_if<std::string>(&replayed)) {
        log::error("{}: {}", escape_for_terminal(path), *error);
        return exit_failed;
    }
    const auto& [result, version] = std::get<Replayed>(replayed);
    print_result(result, json, version);
    if (!html.empty()) {
        in.clear();
        in.seekg(0);
        if (!write_game_page(in, path, html))
            return exit_failed;
    }
    return out.failed() ? exit_output_failed : exit_played;
}

}  // namespace bg::host
