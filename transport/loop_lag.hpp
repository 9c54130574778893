// How late a program's loop runs, measured where its operator looks: a timer every `period`
// measures how late it fired (a loop busy with a handler fires it late by that handler's time),
// and the program names its handlers (scopes) so that the one that held the loop longest is
// known. The figures are of the last minute: the lag's median, 99th percentile and maximum, and
// the longest named handler. It says once when a lag passes a threshold, and once when none has
// for ten seconds.
#pragma once

#include <uv.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/handles.hpp"

namespace bg {

// The figures over a window of time, from samples given with their times: pure, so that they
// are tested with a clock of the test's.
class LagWindow {
  public:
    static constexpr std::uint64_t window_ns = 60'000'000'000;
    struct Figures {
        double p50_ms = 0, p99_ms = 0, max_ms = 0;
        std::size_t samples = 0;
        std::string longest;  // the named handler that held the loop longest, or ""
        double longest_ms = 0;
    };
    // A lag of `lag_ns` measured at `now_ns`.
    void lag(std::uint64_t now_ns, std::uint64_t lag_ns);
    // A named handler ran for `ns`, ending at `now_ns`.
    void handler(std::uint64_t now_ns, std::string_view name, std::uint64_t ns);
    Figures figures(std::uint64_t now_ns);

  private:
    void forget_older(std::uint64_t now_ns);
    struct Sample {
        std::uint64_t at_ns = 0;
        std::uint64_t lag_ns = 0;
    };
    struct Held {
        std::uint64_t at_ns = 0;
        std::string name;
        std::uint64_t ns = 0;
    };
    std::deque<Sample> samples_;
    std::deque<Held> held_;  // the longest handlers only: each longer than every later one
};

class LoopLag {
  public:
    // Over `threshold_ms`: `said(true, ...)` once; then, ten seconds without one, `said(false)`.
    LoopLag(uv_loop_t* loop, std::uint64_t period_ms, std::uint64_t threshold_ms,
            std::function<void(bool over, const LagWindow::Figures&)> said);
    LagWindow::Figures figures();

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

    uv_loop_t* loop_;
    std::uint64_t period_ms_;
    std::uint64_t threshold_ns_;
    std::function<void(bool, const LagWindow::Figures&)> said_;
    LagWindow window_;
    Timer timer_;
    std::uint64_t due_ns_ = 0;
    bool over_ = false;
    std::uint64_t last_over_ns_ = 0;
};

}  // namespace bg
