// A game's files: its event log (a file; or none, and its records still told to an observer) and
// beside it, when asked, what each player wrote to stderr: DIR/game-NNNNNN.jsonl's players'
// as DIR/game-NNNNNN.player-K.stderr (K the seat, from 1), each opened at its player's first
// line, one line a line it wrote (capped and escaped as the host's own stderr shows them).
// Closed once the game is over, saying whether everything was kept; the same sentences for the
// host and the tournament.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "record/event_log.hpp"
#include "record/output_file.hpp"

namespace bg {

// Where player `seat` (from 0) of the game logged at `log_path` has its stderr kept.
std::string player_stderr_path(const std::string& log_path, int seat);

class GameFiles {
  public:
    // The log at `log_path` ("" for none), made now (emptied if it was there); with
    // `players_stderr`, a file beside it for each of `players` that writes a line (what an
    // attempt before left of them removed now). Or why the log cannot be written.
    static std::variant<std::unique_ptr<GameFiles>, std::string> open(const std::string& log_path,
                                                                      int players,
                                                                      bool players_stderr);
    GameFiles(const GameFiles&) = delete;
    GameFiles& operator=(const GameFiles&) = delete;

    EventLog& log() { return log_; }
    const std::string& log_path() const { return log_path_; }
    bool has_log_file() const { return file_.has_value(); }
    // A line of player `seat`'s stderr, already escaped, into its file (with players_stderr).
    void player_line(int seat, const std::string& line);
    // Closes them: "" when every record and line was kept, else which could not be and why
    // ("the event log L could not be written (No space left on device): the game was
    // aborted").
    std::string close();
    // The game never began: its log removed, if this host made it.
    void abandon();

  private:
    GameFiles(std::string log_path, std::optional<OutputFile> file, int players,
              bool players_stderr);

    std::string log_path_;
    std::optional<OutputFile> file_;
    EventLog log_;
    bool players_stderr_;
    std::vector<std::optional<OutputFile>> stderr_files_;
    std::string stderr_error_;  // the first line that could not be kept, and why
};

}  // namespace bg
