// Runs a program for the end-to-end tests: its exit status and everything it printed, with a
// deadline after which it is killed (and the test fails on the status).
#pragma once

#include <string>
#include <vector>

namespace bg::test {

struct Run {
    int status = -1;  // exit status, 128 + signal when killed, -1 when it missed the deadline
    std::string out;
    std::string err;
};

Run run(const std::vector<std::string>& argv, double deadline_seconds = 30);

// Runs `argv` in the background; returns its pid. For signalling the host mid-game.
struct Background {
    int pid = -1;
    int out_fd = -1;
    int err_fd = -1;
    Run wait(double deadline_seconds = 30);
};
Background start(const std::vector<std::string>& argv);

bool process_alive(int pid);
// The live processes (not zombies) on this machine with an argument equal to `tag`: a bot's
// processes, sandboxed or not, found from outside by a word of its command.
std::vector<int> processes_tagged(const std::string& tag);
// Waits (up to `seconds`, a safety net: it returns as soon as it can) until a process holds
// `tag`; whether one did.
bool wait_for_tagged(const std::string& tag, double seconds = 120);
// Waits (likewise) until no process holds `tag`; whether none does.
bool wait_until_untagged(const std::string& tag, double seconds = 120);
std::string read_file(const std::string& path);

}  // namespace bg::test
