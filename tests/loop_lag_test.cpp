// How late the loop runs (transport/loop_lag.hpp): the window's figures over a clock of the
// test's (the lag's percentiles and maximum, the busiest turn and what took most of it, a minute
// forgotten), and on a real loop a handler that holds it, named and said once.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "transport/handles.hpp"
#include "transport/loop_lag.hpp"

using namespace bg;

namespace {

constexpr std::uint64_t ms = 1'000'000;

}  // namespace

TEST_CASE("loop lag: the last minute's lags and busiest turn, older ones forgotten", "[lag]") {
    LagWindow window;
    for (std::uint64_t i = 1; i <= 100; ++i)
        window.lag(i * ms, i * ms);  // 1 to 100 ms late
    window.turn(10 * ms, 30 * ms, "a match over", 20 * ms);
    window.turn(20 * ms, 80 * ms, LagWindow::unnamed, 50 * ms);
    window.turn(30 * ms, 5 * ms, "the matchmaker's turn", 4 * ms);
    LagWindow::Figures f = window.figures(100 * ms);
    CHECK(f.samples == 100);
    CHECK(f.p50_ms == Approx(51));
    CHECK(f.p99_ms == Approx(100));
    CHECK(f.max_ms == Approx(100));
    CHECK(f.busiest_ms == Approx(80));
    CHECK(f.longest == LagWindow::unnamed);
    CHECK(f.longest_ms == Approx(50));
    // A minute on, the busiest turn is gone and the one after it is the busiest left; and then
    // none.
    f = window.figures(LagWindow::window_ns + 25 * ms);
    CHECK(f.busiest_ms == Approx(5));
    CHECK(f.longest == "the matchmaker's turn");
    CHECK(f.samples == 75);
    f = window.figures(LagWindow::window_ns + 200 * ms);
    CHECK((f.samples == 0 && f.max_ms == 0 && f.longest.empty()));
}

TEST_CASE("loop lag: its stalls are summed for good, and the timer's jitter is not a stall",
          "[lag]") {
    LagWindow window;
    for (std::uint64_t i = 1; i <= 1000; ++i)
        window.lag(i * ms, LagWindow::stall_ns - 1);  // jitter: a thousand firings, none a stall
    CHECK(window.stalled_ns() == 0);
    window.lag(1001 * ms, 400 * ms);
    window.lag(1002 * ms, LagWindow::stall_ns);
    CHECK(window.stalled_ns() == 400 * ms + LagWindow::stall_ns);
    // A minute's figures forget; the sum does not.
    CHECK(window.figures(LagWindow::window_ns + 2000 * ms).samples == 0);
    CHECK(window.stalled_ns() == 400 * ms + LagWindow::stall_ns);
}

TEST_CASE("loop lag: a named handler that holds the loop is named, and the lag said once",
          "[lag]") {
    EventLoop loop;
    int said_over = 0;
    LagWindow::Figures said;
    LoopLag lag(loop.get(), 5, 30, [&](bool over, const LagWindow::Figures& f) {
        if (over) {
            ++said_over;
            said = f;
        }
    });
    int runs = 0;
    Timer hold(loop.get(), [&] {
        {
            const LoopLag::Scope scope(&lag, "holding");
            std::this_thread::sleep_for(std::chrono::milliseconds(60));
        }
        if (++runs < 3)
            hold.start(20);
    });
    hold.start(20);
    Timer end(loop.get(), [] {});
    end.start(400);
    loop.run();
    CHECK(said_over == 1);  // three times over, said once: it was not back under for 10 s
    CHECK(said.max_ms >= 30);
    const LagWindow::Figures f = lag.figures();
    CHECK(f.max_ms >= 30);
    CHECK(f.busiest_ms >= 60);
    CHECK(f.longest == "holding");
    CHECK(f.longest_ms >= 60);
    // Each hold made a firing of the 5 ms timer at least 55 ms late: three stalls.
    CHECK(lag.stalled_ns() >= 3 * 55 * ms);
}
