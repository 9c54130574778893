// transport/ on its own: real processes (small shell mock bots) spawned, written to, read from,
// exiting and killed as a group through PlayerProcess, and the loop's timers and turn ends,
// with nothing of the host above them.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/support/run.hpp"
#include "transport/handles.hpp"
#include "transport/player_process.hpp"
#include "transport/spawn.hpp"

using namespace bg;

namespace {

struct Seen {
    std::string output;
    std::vector<std::string> lines;
    bool output_ended = false;
    std::int64_t status = -1;
    int signal = -1;
    bool finished = false;
};

// Runs one mock bot to its end; `act` is called once the process is spawned.
Seen drive(const std::string& command, const std::function<void(PlayerProcess&, Seen&)>& act,
           const std::function<void(PlayerProcess&, Seen&)>& on_output = {}) {
    EventLoop loop;
    Seen seen;
    PlayerProcess* self = nullptr;
    ProcessEvents events;
    events.on_output = [&](std::string_view bytes) {
        seen.output += bytes;
        if (on_output)
            on_output(*self, seen);
    };
    events.on_output_end = [&] { seen.output_ended = true; };
    events.on_log = [&](std::string_view line) { seen.lines.emplace_back(line); };
    events.on_exit = [&](std::int64_t status, int signal) {
        seen.status = status;
        seen.signal = signal;
    };
    events.on_write_error = [](int) {};
    events.on_finished = [&] { seen.finished = true; };
    {
        PlayerProcess process(loop.get(), unsandboxed_launch(command), std::move(events));
        self = &process;
        REQUIRE(process.spawn() == 0);
        act(process, seen);
        loop.run();
    }
    CHECK(loop.close());
    return seen;
}

}  // namespace

TEST_CASE("transport: a process echoes what it is written, and ends at end of input",
          "[transport]") {
    const auto seen = drive("exec cat", [](PlayerProcess& p, Seen&) {
        p.write("hello, ");
        p.write("bot");
        // A farewell closes its input once the queue is written: cat then leaves by itself.
        p.terminate(5000, 5000);
    });
    CHECK(seen.output == "hello, bot");
    CHECK(seen.output_ended);
    CHECK(seen.status == 0);
    CHECK(seen.signal == 0);
    CHECK(seen.finished);
}

TEST_CASE("transport: exit statuses and stderr lines are reported", "[transport]") {
    const auto seen =
        drive("echo one >&2; printf 'two\\nthree' >&2; exit 3", [](PlayerProcess&, Seen&) {});
    CHECK(seen.status == 3);
    CHECK(seen.lines == std::vector<std::string>{"one", "two", "three"});
    CHECK(seen.output.empty());
    CHECK(seen.output_ended);
    CHECK(seen.finished);
}

TEST_CASE("transport: a pipe passes on what waits in it at once, without the loop", "[transport]") {
    EventLoop loop;
    int ends[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends) == 0);
    std::string got;
    int ended = 0;
    {
        Pipe pipe(loop.get());
        REQUIRE(pipe.take(ends[0]) == 0);
        pipe.read([&](std::string_view bytes) { got += bytes; }, [&](int) { ++ended; }, 3);
        REQUIRE(::write(ends[1], "waiting", 7) == 7);
        pipe.read_waiting(4);  // at most four bytes, three at a time
        CHECK(got == "wait");
        pipe.read_waiting(100);
        CHECK(got == "waiting");
        pipe.read_waiting(100);  // nothing there: it does not wait for more
        CHECK(got == "waiting");
        // The end is still the loop's to report, once.
        ::close(ends[1]);
        pipe.read_waiting(100);
        CHECK(ended == 0);
        loop.run_once();
        CHECK(ended == 1);
        CHECK(got == "waiting");
    }
    loop.run();
    CHECK(loop.close());
}

TEST_CASE(
    "transport: a process's stderr written before now is passed on when asked, its last "
    "line cut short",
    "[transport]") {
    std::vector<std::string> asked;
    const auto seen = drive("printf 'one\\ntw' >&2; exec sleep 5", [&](PlayerProcess& p, Seen& s) {
        // The loop has not run: nothing of its stderr is read but as asked.
        for (int i = 0; i < 500 && s.lines.empty(); ++i) {
            ::usleep(10'000);
            p.read_waiting_log();
        }
        asked = s.lines;
        p.terminate(100);
    });
    CHECK(asked == std::vector<std::string>{"one", "tw"});
    CHECK(seen.lines == asked);
}

TEST_CASE("transport: a group that ignores SIGTERM is killed whole after the grace",
          "[transport]") {
    const std::string tag = "bg-transport-" + std::to_string(::getpid());
    // Two children that ignore SIGTERM, as does the shell; it says "up" once they run.
    const std::string command = "trap '' TERM; sh -c 'trap \"\" TERM; sleep 1000' " + tag +
                                " & sh -c 'trap \"\" TERM; sleep 1000' " + tag + " & echo up; wait";
    const auto seen = drive(
        command, [](PlayerProcess&, Seen&) {},
        [&](PlayerProcess& p, Seen& s) {
            if (s.output != "up\n")
                return;
            // The children may not have run sh yet, and each sh forks once more for sleep (a
            // copy that holds the tag until it execs): wait (briefly) for exactly the two.
            for (int i = 0; i < 500 && test::processes_tagged(tag).size() != 2; ++i)
                ::usleep(10'000);
            CHECK(test::processes_tagged(tag).size() >= 2);
            p.terminate(100);
        });
    CHECK(seen.signal == SIGKILL);
    CHECK(seen.finished);
    CHECK(test::processes_tagged(tag).empty());
}

TEST_CASE("transport: a spawned process dies with the process that spawned it, even by SIGKILL",
          "[transport]") {
    const std::string tag = "bg-orphan-" + std::to_string(::getpid());
    // A middle process spawns the player and is killed with SIGKILL: it cannot clean up, so
    // only the kernel (the parent-death signal) can end what it spawned.
    const pid_t middle = ::fork();
    REQUIRE(middle >= 0);
    if (middle == 0) {
        const Launch launch{
            {"/bin/sh", "-c", "while :; do sleep 0.05; done", "sh", tag}, {}, std::nullopt, false};
        if (!std::holds_alternative<Spawned>(spawn_process(launch, {-1, -1, -1, -1}, {})))
            ::_exit(1);
        for (;;)
            ::pause();
    }
    const bool spawned = test::wait_for_tagged(tag);
    ::kill(middle, SIGKILL);
    ::waitpid(middle, nullptr, 0);
    REQUIRE(spawned);
    for (int i = 0; i < 250 && !test::processes_tagged(tag).empty(); ++i)
        ::usleep(20'000);
    const auto left = test::processes_tagged(tag);
    for (const int pid : left)
        ::kill(pid, SIGKILL);
    CHECK(left.empty());
}

TEST_CASE("transport: a command that cannot be spawned finishes at once", "[transport]") {
    EventLoop loop;
    bool finished = false;
    ProcessEvents events;
    events.on_output = [](std::string_view) {};
    events.on_output_end = [] {};
    events.on_log = [](std::string_view) {};
    events.on_exit = [](std::int64_t, int) {};
    events.on_write_error = [](int) {};
    events.on_finished = [&] { finished = true; };
    {
        Launch launch{{"/nonexistent/bot"}, {}, std::nullopt, false};
        PlayerProcess process(loop.get(), launch, std::move(events));
        CHECK(process.spawn() < 0);
        loop.run();
    }
    CHECK(finished);
    CHECK(loop.close());
}

TEST_CASE("transport: timers fire once, and a turn's arrivals are handled at its end",
          "[transport]") {
    EventLoop loop;
    std::vector<std::string> happened;
    {
        TurnEnd turn(loop.get(), [&] { happened.push_back("turn end"); });
        Timer second(loop.get(), [&] { happened.push_back("second"); });
        Timer first(loop.get(), [&] {
            happened.push_back("first");
            turn.arm();       // armed from a timer: the loop must not block before the turn ends
            second.start(5);  // unarmed: no turn end follows it
        });
        first.start(1);
        loop.run();
        CHECK_FALSE(first.active());
        turn.close();
    }
    CHECK(happened == std::vector<std::string>{"first", "turn end", "second"});
    CHECK(loop.close());
}

TEST_CASE("transport: the loop frees the handles closing on it, and will not close past one open",
          "[transport]") {
    EventLoop loop;
    bool fired = false;
    Timer closed(loop.get(), [&] { fired = true; });
    closed.start(0);
    closed.close();  // closing, not yet freed: close() frees it and does not fire it
    auto* open = new uv_timer_t;
    uv_timer_init(loop.get(), open);
    uv_timer_start(
        open, [](uv_timer_t*) {}, 0, 0);
    CHECK_FALSE(loop.close());  // a handle its owner forgot: reported, and nothing run
    uv_close(reinterpret_cast<uv_handle_t*>(open),
             [](uv_handle_t* handle) { delete reinterpret_cast<uv_timer_t*>(handle); });
    CHECK(loop.close());
    CHECK(loop.close());
    CHECK_FALSE(fired);
}
