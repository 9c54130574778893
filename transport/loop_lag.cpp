#include "transport/loop_lag.hpp"

#include <algorithm>

namespace bg {

namespace {

constexpr std::uint64_t quiet_ns = 10'000'000'000;  // no lag over the threshold: back under
constexpr std::size_t held_kept = 4096;  // a bound on the handlers kept, whatever their order

double ms(std::uint64_t ns) {
    return static_cast<double>(ns) / 1e6;
}

}  // namespace

void LagWindow::forget_older(std::uint64_t now_ns) {
    const auto old = [&](std::uint64_t at) { return at + window_ns <= now_ns; };
    while (!samples_.empty() && old(samples_.front().at_ns))
        samples_.pop_front();
    while (!held_.empty() && old(held_.front().at_ns))
        held_.pop_front();
}

void LagWindow::lag(std::uint64_t now_ns, std::uint64_t lag_ns) {
    forget_older(now_ns);
    samples_.push_back({now_ns, lag_ns});
}

void LagWindow::handler(std::uint64_t now_ns, std::string_view name, std::uint64_t ns) {
    forget_older(now_ns);
    // Kept: each handler longer than every one after it, so that the front is the window's
    // longest and the deque stays short.
    while (!held_.empty() && held_.back().ns <= ns)
        held_.pop_back();
    if (held_.size() >= held_kept)
        held_.pop_back();
    held_.push_back({now_ns, std::string(name), ns});
}

LagWindow::Figures LagWindow::figures(std::uint64_t now_ns) {
    forget_older(now_ns);
    Figures f;
    f.samples = samples_.size();
    if (!held_.empty()) {
        f.longest = held_.front().name;
        f.longest_ms = ms(held_.front().ns);
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
    // The clock never keeps the loop running by itself.
    timer_.unref();
    due_ns_ = uv_hrtime() + period_ms_ * 1'000'000;
    timer_.start(period_ms_);
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
    const std::uint64_t now = uv_hrtime();
    lag_->window_.handler(now, name_, now - began_ns_);
}

}  // namespace bg
