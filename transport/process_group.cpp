#include "transport/process_group.hpp"

#include <dirent.h>
#include <signal.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bg {

namespace {

// The state and process group of /proc/<pid>/stat: "pid (comm) state ppid pgrp ...", where
// comm may itself hold spaces and parentheses.
bool read_stat(const char* pid, char& state, long& pgrp) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%s/stat", pid);
    std::FILE* file = std::fopen(path, "r");
    if (!file)
        return false;
    char line[1024];
    const bool read = std::fgets(line, sizeof line, file) != nullptr;
    std::fclose(file);
    if (!read)
        return false;
    const char* close = std::strrchr(line, ')');
    long ppid = 0;
    return close && std::sscanf(close + 1, " %c %ld %ld", &state, &ppid, &pgrp) == 3;
}

}  // namespace

bool process_alive(int pid) {
    char name[32];
    std::snprintf(name, sizeof name, "%d", pid);
    char state = 0;
    long pgrp = 0;
    return read_stat(name, state, pgrp) && state != 'Z';
}

bool process_group_alive(int pgid) {
    if (::kill(-pgid, 0) == -1 && errno == ESRCH)
        return false;
    DIR* proc = opendir("/proc");
    if (!proc)
        return true;  // cannot look: assume the worst, the caller's wait is bounded
    bool alive = false;
    while (const dirent* entry = readdir(proc)) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
            continue;
        char state = 0;
        long pgrp = 0;
        if (read_stat(entry->d_name, state, pgrp) && pgrp == pgid && state != 'Z') {
            alive = true;
            break;
        }
    }
    closedir(proc);
    return alive;
}

}  // namespace bg
