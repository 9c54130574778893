// Whether anything of a process group is still running.
#pragma once

namespace bg {

// True while a process of group `pgid` is alive. Zombies do not count: they have finished and
// only wait for their parent (init, for a player's orphans) to reap them.
bool process_group_alive(int pgid);

// True while process `pid` is alive (not a zombie).
bool process_alive(int pid);

}  // namespace bg
