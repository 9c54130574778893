#include "record/game_files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg {

std::string player_stderr_path(const std::string& log_path, int seat) {
    const std::string stem = log_path.size() > 6 && log_path.ends_with(".jsonl")
                                 ? log_path.substr(0, log_path.size() - 6)
                                 : log_path;
    return fmt::format("{}.player-{}.stderr", stem, seat + 1);
}

std::variant<std::unique_ptr<GameFiles>, std::string> GameFiles::open(const std::string& log_path,
                                                                      int players,
                                                                      bool players_stderr) {
    std::optional<OutputFile> file;
    if (!log_path.empty()) {
        auto made = OutputFile::create(log_path);
        if (auto* error = std::get_if<std::string>(&made))
            return fmt::format("cannot write the event log {}: {}", escape_for_terminal(log_path),
                               *error);
        file.emplace(std::move(std::get<OutputFile>(made)));
    }
    players_stderr = players_stderr && file;
    // An attempt stopped before (the game is played again from the start) leaves nothing.
    for (int seat = 0; players_stderr && seat < players; ++seat)
        std::remove(player_stderr_path(log_path, seat).c_str());
    return std::unique_ptr<GameFiles>(
        new GameFiles(log_path, std::move(file), players, players_stderr));
}

GameFiles::GameFiles(std::string log_path, std::optional<OutputFile> file, int players,
                     bool players_stderr)
    : log_path_(std::move(log_path)),
      file_(std::move(file)),
      log_(file_ ? file_->get() : nullptr),
      players_stderr_(players_stderr),
      stderr_files_(static_cast<std::size_t>(players)) {}

void GameFiles::player_line(int seat, const std::string& line) {
    if (!players_stderr_ || seat < 0 || static_cast<std::size_t>(seat) >= stderr_files_.size())
        return;
    auto& file = stderr_files_[static_cast<std::size_t>(seat)];
    const std::string path = player_stderr_path(log_path_, seat);
    if (!file && stderr_error_.empty()) {
        auto made = OutputFile::create(path);
        if (auto* error = std::get_if<std::string>(&made))
            stderr_error_ = fmt::format("{}: {}", path, *error);
        else
            file.emplace(std::move(std::get<OutputFile>(made)));
    }
    if (file && (std::fputs(line.c_str(), file->get()) < 0 || std::fputc('\n', file->get()) < 0) &&
        stderr_error_.empty())
        stderr_error_ = fmt::format("{}: {}", path, std::strerror(errno));
}

std::string GameFiles::close() {
    const std::string closed = file_ ? file_->close() : "";
    for (auto& file : stderr_files_)
        if (file)
            if (auto error = file->close(); !error.empty() && stderr_error_.empty())
                stderr_error_ = error;
    if (log_.failed() || !closed.empty())
        return fmt::format("the event log {} could not be written ({}){}",
                           escape_for_terminal(log_path_), log_.failed() ? log_.error() : closed,
                           log_.failed() ? ": the game was aborted" : "");
    if (!stderr_error_.empty())
        return fmt::format("a player's stderr could not be kept beside the event log {} ({})",
                           escape_for_terminal(log_path_), escape_for_terminal(stderr_error_));
    return "";
}

void GameFiles::abandon() {
    if (file_)
        file_->abandon();
    file_.reset();
}

}  // namespace bg
