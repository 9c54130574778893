// Small owners of libuv handles, in the manner of uvw's: each handle is closed exactly once, by
// its owner (close(), or the destructor), and its memory stays on the heap until libuv's close
// callback frees it, so the owner may go away at any time. Callbacks never run after close().
// The loop they run on has an owner too (EventLoop).
#pragma once

#include <signal.h>
#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

namespace bg {

// A libuv loop, closed by its owner: close() (or the destructor) frees the handles still
// closing, then closes the loop, and says whether a handle was left open, which is a leak (its
// owner never closed it). It never blocks, nor runs a callback but a close's: a handle left
// open is reported, not waited for.
class EventLoop {
  public:
    // Throws std::system_error when the loop cannot be made (out of file descriptors).
    EventLoop() {
        if (const int error = uv_loop_init(&loop_); error != 0)
            throw std::system_error(-error, std::generic_category(), "cannot start an event loop");
    }
    EventLoop(const EventLoop&) = delete;
    EventLoop& operator=(const EventLoop&) = delete;
    ~EventLoop() { close(); }

    uv_loop_t* get() { return &loop_; }
    // Until nothing keeps the loop running.
    void run() { uv_run(&loop_, UV_RUN_DEFAULT); }
    // One turn, waiting for something to happen if nothing has.
    void run_once() { uv_run(&loop_, UV_RUN_ONCE); }
    // One turn that waits for nothing: what has already happened (a signal) is handled, if a
    // referenced handle keeps the loop alive.
    void run_nowait() { uv_run(&loop_, UV_RUN_NOWAIT); }
    // The run() under way returns once this turn is over, whatever still keeps the loop running.
    void stop() { uv_stop(&loop_); }
    // True when every handle was closed (and is now freed) and the loop with them; false when a
    // handle is still open, the loop then left as it is (to be closed again once it is).
    bool close() {
        if (closed_)
            return true;
        while (uv_loop_close(&loop_) != 0) {
            bool any_open = false;
            uv_walk(
                &loop_,
                [](uv_handle_t* handle, void* any) {
                    if (!uv_is_closing(handle))
                        *static_cast<bool*>(any) = true;
                },
                &any_open);
            if (any_open)
                return false;
            // Only closing handles are left: a turn runs their close callbacks (which may close
            // others) and nothing else.
            uv_run(&loop_, UV_RUN_NOWAIT);
        }
        closed_ = true;
        return true;
    }

  private:
    uv_loop_t loop_{};
    bool closed_ = false;
};

namespace detail {

// A handle of type H and the callback it calls, freed by libuv's close callback.
template <class H, class Callback>
class OwnedHandle {
  public:
    OwnedHandle(const OwnedHandle&) = delete;
    OwnedHandle& operator=(const OwnedHandle&) = delete;
    OwnedHandle(OwnedHandle&& other) noexcept : state_(other.state_) { other.state_ = nullptr; }
    OwnedHandle& operator=(OwnedHandle&& other) noexcept {
        if (this != &other) {
            close();
            state_ = other.state_;
            other.state_ = nullptr;
        }
        return *this;
    }
    ~OwnedHandle() { close(); }

    // Idempotent; the loop frees the handle on its next turn.
    void close() {
        if (!state_)
            return;
        // The callback stays until the handle is freed: it may be the one closing it.
        uv_close(reinterpret_cast<uv_handle_t*>(&state_->handle),
                 [](uv_handle_t* handle) { delete static_cast<State*>(handle->data); });
        state_ = nullptr;
    }
    bool active() const {
        return state_ && uv_is_active(reinterpret_cast<const uv_handle_t*>(&state_->handle));
    }
    // An unreferenced handle does not keep the loop running by itself.
    void unref() {
        if (state_)
            uv_unref(reinterpret_cast<uv_handle_t*>(&state_->handle));
    }
    void ref() {
        if (state_)
            uv_ref(reinterpret_cast<uv_handle_t*>(&state_->handle));
    }

  protected:
    struct State {
        H handle{};
        Callback callback;
    };
    explicit OwnedHandle(Callback callback) : state_(new State{{}, std::move(callback)}) {
        state_->handle.data = state_;
    }
    static State& state_of(H* handle) { return *static_cast<State*>(handle->data); }

    State* state_;
};

}  // namespace detail

// A one-shot timer.
class Timer : public detail::OwnedHandle<uv_timer_t, std::function<void()>> {
  public:
    Timer(uv_loop_t* loop, std::function<void()> on_fire) : OwnedHandle(std::move(on_fire)) {
        uv_timer_init(loop, &state_->handle);
    }
    // Fires once, `ms` from now; a running timer starts again.
    void start(std::uint64_t ms) {
        if (state_)
            uv_timer_start(
                &state_->handle, [](uv_timer_t* handle) { state_of(handle).callback(); }, ms, 0);
    }
    void stop() {
        if (state_)
            uv_timer_stop(&state_->handle);
    }
};

// Watches a descriptor for reading (a pidfd, a cgroup's notifications): its callback runs each
// time it is readable, until stop() or close(). The descriptor is not its to close. One that
// cannot be watched (already watched on this loop, or not pollable) leaves it inactive, and
// there is nothing for libuv to close.
class Poll : public detail::OwnedHandle<uv_poll_t, std::function<void()>> {
  public:
    Poll(uv_loop_t* loop, int fd, std::function<void()> on_readable)
        : OwnedHandle(std::move(on_readable)) {
        if (uv_poll_init(loop, &state_->handle, fd) != 0) {
            delete state_;
            state_ = nullptr;
            return;
        }
        uv_poll_start(&state_->handle, UV_READABLE,
                      [](uv_poll_t* handle, int, int) { state_of(handle).callback(); });
    }
    void stop() {
        if (state_)
            uv_poll_stop(&state_->handle);
    }
    // Still watching: not stopped, nor stopped by libuv at an error of the descriptor.
    bool active() const {
        return state_ && uv_is_active(reinterpret_cast<const uv_handle_t*>(&state_->handle));
    }
};

namespace detail {
struct PipeState {
    std::function<void(std::string_view bytes)> on_read;
    // The end of what it reads: EOF (UV_EOF) or an error; reading has stopped.
    std::function<void(int error)> on_end;
    std::function<void(int error)> on_write_error;
    bool closed = false;  // by its owner: no callback runs any more
    uv_shutdown_t shutdown{};
    std::unique_ptr<char[]> buffer;  // what it reads goes here: allocated once reading starts
    std::size_t buffer_bytes = 0;
};
}  // namespace detail

// One end of a child's stdio (a Unix socket, as uv_spawn makes them): read, written in order,
// shut down for writing. Its callbacks never run after close(), a write cancelled by the close
// included.
class Pipe : public detail::OwnedHandle<uv_pipe_t, detail::PipeState> {
  public:
    explicit Pipe(uv_loop_t* loop);
    Pipe(Pipe&&) noexcept = default;
    ~Pipe() { close(); }
    void close();
    bool open() const { return state_ != nullptr; }

    // Takes `fd` (it closes it); 0 or a negative libuv error.
    int take(int fd);
    // Reads, `buffer_bytes` at most at a time, until the end.
    void read(std::function<void(std::string_view bytes)> on_read,
              std::function<void(int error)> on_end, std::size_t buffer_bytes = 64 * 1024);
    // What the other side has written and read() has not yet passed on, up to `at_most` bytes,
    // passed on now, without waiting for the loop (its end, or an error, is still read()'s to
    // report). Only once read() has begun, and never from its own on_read (its buffer is the
    // one on_read's bytes are in).
    void read_waiting(std::size_t at_most);
    void on_write_error(std::function<void(int error)> callback);
    // Written at once when the pipe has room (no copy, no request), else queued behind what
    // waits: the order is kept.
    void write(std::string bytes);
    std::size_t queued_bytes() const;
    // End of input for the other side once what is queued has been written.
    void shutdown();
};

// Watches one signal for as long as it lives.
class SignalWatch : public detail::OwnedHandle<uv_signal_t, std::function<void(int)>> {
  public:
    SignalWatch(uv_loop_t* loop, int signum, std::function<void(int)> on_signal)
        : OwnedHandle(std::move(on_signal)) {
        uv_signal_init(loop, &state_->handle);
        uv_signal_start(
            &state_->handle,
            [](uv_signal_t* handle, int signal) { state_of(handle).callback(signal); }, signum);
    }
};

// Blocks these signals in this thread from now on. Called before the last watches of a program's
// signals go (its work done, its last words still to say: the result, the standings): a signal
// that comes then stays pending instead of killing the process by its default action, and goes
// with the process when it exits. Players start with no signal blocked (transport/spawn.cpp).
inline void hold_signals(std::span<const int> signals) {
    sigset_t set;
    sigemptyset(&set);
    for (const int signal : signals)
        sigaddset(&set, signal);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

// Runs its callback at the end of a turn of the loop, after the loop has polled for I/O, when
// arm() was called in the turn: what arrived in one turn is handled together. Armed from a
// timer's callback (before the poll), it keeps the poll from blocking; unarmed, it never keeps
// the loop running.
class TurnEnd {
  public:
    TurnEnd(uv_loop_t* loop, std::function<void()> on_turn_end)
        : check_(loop,
                 [this, on_turn_end = std::move(on_turn_end)] {
                     if (!idle_.active())
                         return;
                     idle_.stop();
                     on_turn_end();
                 }),
          idle_(loop) {}
    TurnEnd(const TurnEnd&) = delete;
    TurnEnd& operator=(const TurnEnd&) = delete;
    void arm() { idle_.start(); }
    void close() {
        check_.close();
        idle_.close();
    }

  private:
    class Check : public detail::OwnedHandle<uv_check_t, std::function<void()>> {
      public:
        Check(uv_loop_t* loop, std::function<void()> callback) : OwnedHandle(std::move(callback)) {
            uv_check_init(loop, &state_->handle);
            uv_check_start(&state_->handle,
                           [](uv_check_t* handle) { state_of(handle).callback(); });
            unref();
        }
    };
    // While active, the loop polls without blocking (its callback has nothing to do).
    class Idle : public detail::OwnedHandle<uv_idle_t, std::function<void()>> {
      public:
        explicit Idle(uv_loop_t* loop) : OwnedHandle(nullptr) {
            uv_idle_init(loop, &state_->handle);
        }
        void start() {
            if (state_ && !active())
                uv_idle_start(&state_->handle, [](uv_idle_t*) {});
        }
        void stop() {
            if (state_)
                uv_idle_stop(&state_->handle);
        }
    };

    Check check_;
    Idle idle_;
};

}  // namespace bg
