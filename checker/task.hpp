// The checker's scenarios as coroutines: each reads like the conversation it is (send, wait for
// the bot's answer, judge it), and waits without holding the loop, so that the checker shares
// a loop with whatever else runs on it (an arena's matches, its server).
//
// Task<T> is a lazy coroutine: it runs when it is awaited (or start()ed), and resumes its awaiter
// when it returns. A Waker is the one place a suspended task waits: for a condition that the
// loop's callbacks make true (poke() after each), or for a time to pass. It resumes the task from
// a timer of its own, never from inside another handle's callback, so that what the task ends
// (a seat, with its handles) is not the callback that is running.
#pragma once

#include <coroutine>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <utility>

#include <uv.h>

#include "transport/handles.hpp"

namespace bg::checker {

template <class T>
class Task;

namespace detail {

struct PromiseBase {
    std::coroutine_handle<> continuation;
    std::exception_ptr error;

    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
        bool await_ready() noexcept { return false; }
        template <class P>
        std::coroutine_handle<> await_suspend(std::coroutine_handle<P> done) noexcept {
            const auto next = done.promise().continuation;
            return next ? next : std::noop_coroutine();
        }
        void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void unhandled_exception() { error = std::current_exception(); }
};

template <class T>
struct Promise : PromiseBase {
    std::optional<T> value;
    Task<T> get_return_object();
    void return_value(T v) { value = std::move(v); }
    T take() {
        if (error)
            std::rethrow_exception(error);
        return std::move(*value);
    }
};

template <>
struct Promise<void> : PromiseBase {
    Task<void> get_return_object();
    void return_void() {}
    void take() {
        if (error)
            std::rethrow_exception(error);
    }
};

}  // namespace detail

template <class T = void>
class [[nodiscard]] Task {
  public:
    using promise_type = detail::Promise<T>;
    using Handle = std::coroutine_handle<promise_type>;

    explicit Task(Handle handle) : handle_(handle) {}
    Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
    Task& operator=(Task&& other) noexcept {
        if (this != &other) {
            if (handle_)
                handle_.destroy();
            handle_ = std::exchange(other.handle_, {});
        }
        return *this;
    }
    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;
    // A task destroyed before it is done is ended where it waits: its frame, and what lives in
    // it, destroyed.
    ~Task() {
        if (handle_)
            handle_.destroy();
    }

    // Runs it until it first waits (a task nobody awaits: its owner keeps it).
    void start() { handle_.resume(); }
    bool done() const { return handle_.done(); }

    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
        handle_.promise().continuation = awaiter;
        return handle_;
    }
    T await_resume() { return handle_.promise().take(); }

  private:
    Handle handle_;
};

namespace detail {

template <class T>
Task<T> Promise<T>::get_return_object() {
    return Task<T>(Task<T>::Handle::from_promise(*this));
}

inline Task<void> Promise<void>::get_return_object() {
    return Task<void>(Task<void>::Handle::from_promise(*this));
}

}  // namespace detail

class Waker {
  public:
    explicit Waker(uv_loop_t* loop) : loop_(loop), timer_(loop, [this] { turn(); }) {}

    // Something the waiting task may wait for has happened: it looks, on the loop's next turn.
    void poke() {
        if (waiting_)
            timer_.start(0);
    }

    // co_await until(ready): until ready() holds; with `ms`, no longer than that (ready() may
    // then be false: the awaiter looks).
    auto until(std::function<bool()> ready, std::optional<std::uint64_t> ms = std::nullopt) {
        struct Awaiter {
            Waker& waker;
            std::function<bool()> ready;
            std::optional<std::uint64_t> ms;
            bool await_ready() const { return ready(); }
            void await_suspend(std::coroutine_handle<> handle) {
                waker.wait(handle, std::move(ready), ms);
            }
            void await_resume() const noexcept {}
        };
        return Awaiter{*this, std::move(ready), ms};
    }
    // co_await sleep(ms).
    auto sleep(std::uint64_t ms) {
        return until([] { return false; }, ms);
    }

  private:
    void wait(std::coroutine_handle<> handle, std::function<bool()> ready,
              std::optional<std::uint64_t> ms) {
        waiting_ = handle;
        ready_ = std::move(ready);
        deadline_ = ms ? std::optional<std::uint64_t>(uv_now(loop_) + *ms) : std::nullopt;
        turn_later();
    }
    void turn() {
        if (!waiting_)
            return;
        if (ready_() || (deadline_ && uv_now(loop_) >= *deadline_)) {
            ready_ = nullptr;
            std::exchange(waiting_, {}).resume();
            return;
        }
        turn_later();
    }
    // Looks again at the deadline, unless poked before.
    void turn_later() {
        if (deadline_)
            timer_.start(*deadline_ - std::min(*deadline_, uv_now(loop_)));
        else
            timer_.stop();
    }

    uv_loop_t* loop_;
    Timer timer_;
    std::coroutine_handle<> waiting_;
    std::function<bool()> ready_;
    std::optional<std::uint64_t> deadline_;
};

}  // namespace bg::checker
