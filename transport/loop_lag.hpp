// How late a program's loop runs, measured where its operator looks: a timer every `period`
// measures how late it fired (a loop busy with a handler fires it late by that handler's time),
// and each turn of the loop is weighed: how long it was busy (libuv's own account of its idle
// time, subtracted), and what of it the program's named handlers took (scopes, summed by name
// over the turn), the rest being the loop's own work that no handler names (connections read and
// written, games' messages). The figures are of the last minute: the lag's median, 99th
// percentile and maximum, and of the busiest turn, its length and what took most of it. It says
// once when a lag passes a threshold, and once when none has for ten seconds.
#pragma once

#include <uv.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "transport/handles.hpp"

namespace bg {

// The figures over a window of time, from samples given with their times: pure, so that they
// are tested with a clock of the test's.
class LagWindow {
  public:
    static constexpr std::uint64_t window_ns = 60'000'000'000;
    // What took most of the busiest turns, besides the handlers the program names.
    static constexpr std::string_view unnamed = "the loop's own work (connections, games)";
    struct Figures {
        double p50_ms = 0, p99_ms = 0, max_ms = 0;
        std::size_t samples = 0;
        double busiest_ms = 0;  // the busiest turn of the loop
        std::string longest;    // what took most of it: a named handler, or `unnamed` ("": none)
        double longest_ms = 0;
    };
    // A lag of `lag_ns` measured at `now_ns`.
    void lag(std::uint64_t now_ns, std::uint64_t lag_ns);
    // A lag this long or longer is a stall: the loop served nothing for a timer's period or
    // more (a shorter one is the timer's own jitter, which a stall's sum would gather).
    static constexpr std::uint64_t stall_ns = 10'000'000;
    // The stalls' lags summed since the start, never forgotten: how long the loop served no
    // one between two readings (their difference).
    std::uint64_t stalled_ns() const { return stalled_ns_; }
    // A turn of the loop busy for `busy_ns`, ending at `now_ns`, what took most of it, how long.
    void turn(std::uint64_t now_ns, std::uint64_t busy_ns, std::string_view most,
              std::uint64_t most_ns);
    Figures figures(std::uint64_t now_ns);

  private:
    void forget_older(std::uint64_t now_ns);
    struct Sample {
        std::uint64_t at_ns = 0;
        std::uint64_t lag_ns = 0;
    };
    struct Turn {
        std::uint64_t at_ns = 0;
        std::uint64_t busy_ns = 0;
        std::string most;
        std::uint64_t most_ns = 0;
    };
    std::deque<Sample> samples_;
    std::deque<Turn> turns_;  // the busiest only: each busier than every later one
    std::uint64_t stalled_ns_ = 0;
};

class LoopLag {
  public:
    // Over `threshold_ms`: `said(true, ...)` once; then, ten seconds without one, `said(false)`.
    // Made before the loop first runs (its idle time is counted from then).
    LoopLag(uv_loop_t* loop, std::uint64_t period_ms, std::uint64_t threshold_ms,
            std::function<void(bool over, const LagWindow::Figures&)> said);
    ~LoopLag();
    LoopLag(const LoopLag&) = delete;
    LoopLag& operator=(const LoopLag&) = delete;
    LagWindow::Figures figures();
    // The loop's stalls summed since it started (LagWindow::stalled_ns).
    std::uint64_t stalled_ns() const { return window_.stalled_ns(); }

    // A handler of the program's, named (the name outlives the scope), timed from here to its
    // end; none where `lag` is none.
    class Scope {
      public:
        Scope(LoopLag* lag, std::string_view name);
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

      private:
        LoopLag* lag_;
        std::string_view name_;
        std::uint64_t began_ns_;
    };

  private:
    void fired();
    void turned();

    uv_loop_t* loop_;
    std::uint64_t period_ms_;
    std::uint64_t threshold_ns_;
    std::function<void(bool, const LagWindow::Figures&)> said_;
    LagWindow window_;
    Timer timer_;
    uv_check_t* check_ = nullptr;  // after each turn's I/O: the turn weighed
    std::uint64_t due_ns_ = 0;
    bool over_ = false;
    std::uint64_t last_over_ns_ = 0;
    std::uint64_t turn_began_ns_ = 0, idle_at_turn_ = 0;
    std::vector<std::pair<std::string_view, std::uint64_t>> named_;  // this turn's, by name
};

}  // namespace bg
