#include "transport/loop_lag.hpp"

#include <algorithm>

namespace bg {

namespace {

constexpr std::uint64_t quiet_ns = 10'000'000'000;  // no lag over the threshold: back under
constexpr std::size_t turns_kept = 4096;  // a bound on the turns kept, whatever their order

double ms(std::uint64_t ns) {
    return static_cast<double>(ns) / 1e6;
}

}  // namespace

void LagWindow::forget_older(std::uint64_t now_ns) {
    const auto old = [&](std::uint64_t at) { return at + window_ns <= now_ns; };
    while (!samples_.empty() && old(samples_.front().at_ns))
        samples_.pop_front();
    while (!turns_.empty() && old(turns_.front().at_ns))
        turns_.pop_front();
}

void LagWindow::lag(std::uint64_t now_ns, std::uint64_t lag_ns) {
    forget_older(now_ns);
    samples_.push_back({now_ns, lag_ns});
    if (lag_ns >= stall_ns)
        stalled_ns_ += lag_ns;
}

void LagWindow::turn(std::uint64_t now_ns, std::uint64_t busy_ns, std::string_view most,
                     std::uint64_t most_ns) {
    forget_older(now_ns);
    // Kept: each turn busier than every one after it, so that the front is the window's
    // busiest and the deque stays short.
    while (!turns_.empty() && turns_.back().busy_ns <= busy_ns)
        turns_.pop_back();
    if (turns_.size() >= turns_kept)
        turns_.pop_back();
    turns_.push_back({now_ns, busy_ns, std::string(most), most_ns});
}

LagWindow::Figures LagWindow::figures(std::uint64_t now_ns) {
    forget_older(now_ns);
    Figures f;
    f.samples = samples_.size();
    if (!turns_.empty()) {
        f.busiest_ms = ms(turns_.front().busy_ns);
        f.longest = turns_.front().most;
        f.longest_ms = ms(turns_.front().most_ns);
    }
    if (samples_.empty())
        return f;
    std::vector<std::uint64_t> lags;
    lags.reserve(samples_.size());
    for (const Sample& s : samples_)
        lags.push_back(s.lag_ns);
    std::sort(lags.begin(), lags.end());
    const auto at = [&](double q) {
        return lags[std::min(lags.size() - 1,
                             static_cast<std::size_t>(q * static_cast<double>(lags.size())))];
    };
    f.p50_ms = ms(at(0.5));
    f.p99_ms = ms(at(0.99));
    f.max_ms = ms(lags.back());
    return f;
}

LoopLag::LoopLag(uv_loop_t* loop, std::uint64_t period_ms, std::uint64_t threshold_ms,
                 std::function<void(bool, const LagWindow::Figures&)> said)
    : loop_(loop),
      period_ms_(period_ms),
      threshold_ns_(threshold_ms * 1'000'000),
      said_(std::move(said)),
      timer_(loop, [this] { fired(); }) {
    // The clock never keeps the loop running by itself, nor does the weighing of its turns.
    timer_.unref();
    due_ns_ = uv_hrtime() + period_ms_ * 1'000'000;
    timer_.start(period_ms_);
    uv_loop_configure(loop_, UV_METRICS_IDLE_TIME);
    check_ = new uv_check_t;
    check_->data = this;
    uv_check_init(loop_, check_);
    uv_check_start(check_, [](uv_check_t* check) { static_cast<LoopLag*>(check->data)->turned(); });
    uv_unref(reinterpret_cast<uv_handle_t*>(check_));
    turn_began_ns_ = uv_hrtime();
    idle_at_turn_ = uv_metrics_idle_time(loop_);
}

LoopLag::~LoopLag() {
    uv_check_stop(check_);
    uv_close(reinterpret_cast<uv_handle_t*>(check_),
             [](uv_handle_t* handle) { delete reinterpret_cast<uv_check_t*>(handle); });
}

// A turn's I/O is done: since the last, the loop was busy for what was not spent waiting.
void LoopLag::turned() {
    const std::uint64_t now = uv_hrtime(), idle = uv_metrics_idle_time(loop_);
    const std::uint64_t waited = idle - idle_at_turn_, spent = now - turn_began_ns_;
    const std::uint64_t busy = spent > waited ? spent - waited : 0;
    turn_began_ns_ = now;
    idle_at_turn_ = idle;
    std::string_view most = LagWindow::unnamed;
    std::uint64_t named = 0, most_ns = 0;
    for (const auto& [name, ns] : named_) {
        named += ns;
        if (ns > most_ns)
            most = name, most_ns = ns;
    }
    if (busy > named && busy - named > most_ns)
        most = LagWindow::unnamed, most_ns = busy - named;
    named_.clear();
    if (busy >= 1'000'000)  // a turn of a millisecond or more
        window_.turn(now, busy, most, most_ns);
}

void LoopLag::fired() {
    const std::uint64_t now = uv_hrtime();
    const std::uint64_t late = now > due_ns_ ? now - due_ns_ : 0;
    window_.lag(now, late);
    if (late > threshold_ns_) {
        last_over_ns_ = now;
        if (!over_ && said_) {
            over_ = true;
            said_(true, window_.figures(now));
        }
    } else if (over_ && now - last_over_ns_ >= quiet_ns) {
        over_ = false;
        if (said_)
            said_(false, window_.figures(now));
    }
    due_ns_ = now + period_ms_ * 1'000'000;
    timer_.start(period_ms_);
}

LagWindow::Figures LoopLag::figures() {
    return window_.figures(uv_hrtime());
}

LoopLag::Scope::Scope(LoopLag* lag, std::string_view name)
    : lag_(lag), name_(name), began_ns_(lag ? uv_hrtime() : 0) {}

LoopLag::Scope::~Scope() {
    if (!lag_)
        return;
    const std::uint64_t ns = uv_hrtime() - began_ns_;
    for (auto& [name, sum] : lag_->named_)
        if (name == name_) {
            sum += ns;
            return;
        }
    lag_->named_.emplace_back(name_, ns);
}

}  // namespace bg
