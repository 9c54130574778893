// A file a game's record is written to (its event log, a player's stderr kept beside it):
// opened close-on-exec, so that no player may write, cut or read the record of its own game;
// closed by its owner, who learns whether everything was written; and, when the game is
// abandoned before it began, removed, once, if this host made it (never a file that was there
// before: a log given as /dev/full stays).
#pragma once

#include <cstdio>
#include <string>
#include <variant>

namespace bg {

class OutputFile {
  public:
    // The file, made or emptied; or why it cannot be (the system's words: "Permission denied").
    static std::variant<OutputFile, std::string> create(const std::string& path);
    OutputFile(OutputFile&& other) noexcept;
    OutputFile& operator=(OutputFile&& other) noexcept;
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile();

    std::FILE* get() const { return file_; }
    const std::string& path() const { return path_; }
    // Closes it: "" when every byte was written, else why not. Once.
    std::string close();
    // Closes it and, if this host made it, removes it.
    void abandon();

  private:
    OutputFile() = default;

    std::FILE* file_ = nullptr;
    std::string path_;
    bool made_ = false;  // it was not there before
};

}  // namespace bg
