#!/bin/sh
# The init of tests/cgroup_v2_vm.sh's virtual machine, on the host's file system (read-only):
# mounts what a machine has, with cgroup v2 alone, and runs the shares tests as root, then as a
# user in a cgroup delegated to it; prints "guest: root: passed|failed" and the same for the
# user, and powers off.
#
#   cgroup_v2_guest.sh BUILD_DIR CATCH_FILTER
build=$1
filter=$2
mount -t proc proc /proc
mount -t sysfs sys /sys
# Writable places are under /run: the host's /tmp (where a clone and its build may be) stays seen.
mount -t tmpfs -o mode=755 run /run
mkdir -m 1777 /run/tmp
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 shm /dev/shm
mount -t cgroup2 cgroup2 /sys/fs/cgroup
hostname guest
ip link set lo up 2>/dev/null
echo "guest: kernel $(uname -r), cgroup2 controllers: $(cat /sys/fs/cgroup/cgroup.controllers)," \
    "CPU pressure (a player's wait for a CPU is read from it, else from schedstat):" \
    "$([ -r /sys/fs/cgroup/cpu.pressure ] && echo yes || echo no)"
echo "+cpu +cpuset +memory +pids" >/sys/fs/cgroup/cgroup.subtree_control
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 HOME=/root TMPDIR=/run/tmp

verdict() {
    if [ "$2" -eq 0 ]; then echo "guest: $1: passed"; else echo "guest: $1: failed ($2)"; fi
}

# As root, its cgroup the hierarchy's root: the games go under /bananagrams.
mkdir /run/root && cd /run/root
"$build/tests/shares_tests" -w NoTests -d yes "$filter" 2>&1
verdict root $?

# As a user, in a cgroup delegated as systemd does it (Delegate=yes): the host moves the
# scope's processes to a leaf of their own and puts its games beside it.
scope=/sys/fs/cgroup/user-test.scope
mkdir "$scope"
python3 -c "import os, sys; os.setxattr(sys.argv[1], 'trusted.delegate', b'1')" "$scope"
# (systemd 253 and later also set user.delegate, which the user may read; bookworm's 252 does
# not: the host then goes by the scope being the user's.)
chown nobody:nogroup "$scope" "$scope/cgroup.procs" "$scope/cgroup.subtree_control" \
    "$scope/cgroup.threads"
mkdir /run/user && chown nobody:nogroup /run/user && cd /run/user
# Its shell is put there as systemd's would be, then becomes the user. Not the tests that become
# another user themselves (only root may), nor those whose code has nothing of its own to do for
# a user that the root pass has not done (a second host's weights, the tournament's cgroups).
sh -c 'echo $$ >"$1/cgroup.procs" && exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
    env HOME=/run/user "$2/tests/shares_tests" -w NoTests -d yes "$3" \
        "~*refuses*" "~*beside*" "~*tournament*"' sh "$scope" "$build" "$filter" 2>&1
verdict user $?
echo "guest: left behind: $(find /sys/fs/cgroup -name 'game-*' -o -name bananagrams | tr '\n' ' ')"
echo o >/proc/sysrq-trigger
sleep 10
