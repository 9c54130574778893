// Starting, placing and reaping the benchmarks' processes, with as little as the system allows:
// posix_spawn of `sh -c COMMAND`, as the host starts a player.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <string>

namespace bg::bench {

struct Child {
    pid_t pid = -1;
    int in = -1;   // its stdin, ours to write
    int out = -1;  // its stdout, ours to read
};

// sh -c COMMAND, with pipes when `piped`, else /dev/null for stdin and stdout. Its stderr is
// /dev/null unless `keep_stderr`. Exits the program if it cannot.
Child spawn(const std::string& command, bool piped, bool keep_stderr = false);

// Waits for the child to end; its resource usage.
rusage reap(pid_t pid);
// The same, for a child that must exit with status 0: else the program stops, naming `what`.
rusage reap_ok(pid_t pid, const std::string& what);

// Moves the calling process to one CPU (what it starts from then on starts there too). Exits the
// program, naming `who`, if it cannot.
void pin_to_cpu(int cpu, const char* who);

}  // namespace bg::bench
