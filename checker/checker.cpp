#include "checker/checker.hpp"

#include <dirent.h>
#include <uv.h>

#include <algorithm>
#include <csignal>
#include <deque>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "checker/task.hpp"
#include "compat/legacy.hpp"
#include "core/grid.hpp"
#include "core/judge.hpp"
#include "core/text.hpp"
#include "protocol/messages.hpp"
#include "protocol/player_reader.hpp"
#include "transport/handles.hpp"
#include "transport/process_seat.hpp"

namespace bg::checker {

namespace {

// The scenarios' tiles. ACT is played as CAT or ACT; with the S a peel deals, CATS, ACTS, SCAT
// or CAST; QQ holds no word at all, so a bot can only dump.
constexpr std::string_view deal = "ACT";
constexpr char dealt_tile = 'S';
constexpr std::string_view stuck = "QQ";
const std::vector<std::string> scenario_words = {"CAT", "CATS"};

// The answer to a bot's handshake, as a host's (answered_version): v002 as first published, or
// (v003 and later) with the seat and the number of seats: the bot plays as seat 1 of 2.
std::string version_answer(int asked) {
    return v2::version(answered_version(asked, protocol_newest), 0, 2);
}

constexpr std::string_view hint_newline =
    "a newline after a message? The protocol has no line ends: a message is its bytes alone "
    "(\"r\", not \"r\\n\"; \\x0a is a newline). Write bytes, not lines: sys.stdout.write() or "
    "os.write() in Python, process.stdout.write() in Node, fputs() in C, fmt.Print in Go.";
constexpr std::string_view hint_flush =
    "Its bytes came only as it ended: it does not flush its output. Flush after every message "
    "(Python: sys.stdout.flush() or os.write(1, ...); C: fflush(stdout); C++: std::cout << "
    "std::flush; Java: System.out.flush()). A pipe is not a terminal: output waits in a buffer.";
constexpr std::string_view hint_silent =
    "It said nothing at all, not even as it ended. Does it write its messages to stdout (not "
    "stderr, which the host only shows, as the [bot] lines above)? Does its command start (a "
    "wrong path or interpreter shows above)?";

struct ProcessInfo {
    int pid = 0;
    int parent = 0;
    std::string name;
};

// The processes of a process group, from /proc: what a bot runs.
std::vector<ProcessInfo> processes_in_group(int group) {
    std::vector<ProcessInfo> found;
    DIR* proc = ::opendir("/proc");
    if (!proc || group <= 0)
        return found;
    while (const dirent* entry = ::readdir(proc)) {
        const std::string name = entry->d_name;
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream stat("/proc/" + name + "/stat");
        std::string line;
        if (!std::getline(stat, line))
            continue;
        const auto open = line.find('('), close = line.rfind(')');
        if (open == std::string::npos || close == std::string::npos)
            continue;
        std::istringstream rest(line.substr(close + 2));
        char state = 0;
        int parent = 0, pgrp = 0;
        rest >> state >> parent >> pgrp;
        if (pgrp == group)
            found.push_back({std::stoi(name), parent, line.substr(open + 1, close - open - 1)});
    }
    ::closedir(proc);
    return found;
}

bool is_shell(const std::string& name) {
    return name == "sh" || name == "dash" || name == "bash" || name == "zsh";
}

// The processes, as "name (pid N)".
std::string names_of(const std::vector<ProcessInfo>& processes) {
    std::vector<std::string> names;
    for (const auto& p : processes)
        names.push_back(fmt::format("{} (pid {})", p.name, p.pid));
    return fmt::format("{}", fmt::join(names, ", "));
}

// One run of the bot: its process (or its connection), what it has sent, and its messages as
// the host reads them.
class Bot {
  public:
    enum class Ended { already, by_itself, at_sigterm, killed };

    Bot(uv_loop_t* loop, Waker& waker, const Options& options)
        : loop_(loop), waker_(waker), options_(options), seat_(options.seat(loop)) {}
    Bot(const Bot&) = delete;
    Bot& operator=(const Bot&) = delete;
    // A scenario ends its bot (closed()) before it goes; one cut short (the checker ended
    // early) is closed at once, and its seat ends what is left of it.
    ~Bot() {
        if (!seat_->finished())
            seat_->close(0, 0);
    }

    // What a remote seat's bot is sent at a scenario's end, unless the scenario ended its game
    // itself (farewell("")): an E, as a host that stops a game sends, so that no bot's seat
    // closes without one.
    void farewell(std::string bytes) { farewell_ = std::move(bytes); }

    // Starts it: "" or why its command could not start.
    std::string spawn() {
        started_ = uv_hrtime();
        Seat::Events events;
        events.output = [this](std::string_view b) { on_output(b); };
        events.output_end = [this] { on_output_end(); };
        events.log = [this](std::string_view line) {
            if (options_.bot_log)
                options_.bot_log(line);
            else
                std::cerr << "[bot] " << escape_for_terminal(line) << "\n";
        };
        events.exited = [this](std::int64_t, int signal) { on_exit(signal); };
        // A remote seat's bot that closed its connection has left, as one that closes its
        // output has; one out of memory has gone too.
        events.gone = [this](OutCode, std::string) { on_output_end(); };
        events.send_failed = [](std::string) {};
        events.finished = [this] {
            finished_at_ = uv_hrtime();
            waker_.poke();
        };
        seat_->attach(std::move(events));
        return seat_->open();
    }
    void send(std::string_view bytes) { seat_->send(std::string(bytes)); }

    // Its next message (or the protocol error that ends its stream), waiting up to `ms`;
    // nullopt when none came: it said nothing, or its output ended.
    Task<std::optional<Input>> next(std::uint64_t ms) {
        co_await waker_.until([this] { return !inputs_.empty() || output_ended_; }, ms);
        last_.reset();
        if (inputs_.empty())
            co_return std::nullopt;
        last_ = inputs_.front();
        Input input = std::move(inputs_.front());
        inputs_.pop_front();
        co_return input;
    }
    // What next() last returned.
    const std::optional<Input>& last_input() const { return last_; }

    // Ends it as the host ends a player: its input closed, `farewell_ms` for it to leave by
    // itself, then SIGTERM, then SIGKILL `grace_ms` later. Runs until nothing of it is left.
    Task<Ended> end(std::uint64_t farewell_ms, std::uint64_t grace_ms) {
        if (exited_) {
            co_await finish();
            co_return Ended::already;
        }
        const std::uint64_t from = uv_hrtime();
        if (!farewell_.empty())
            seat_->send(std::exchange(farewell_, ""));
        seat_->close(farewell_ms, grace_ms);
        // What is left of it just before SIGKILL would come: who ignored SIGTERM.
        Timer look(loop_, [this] { left_ = processes(); });
        look.start(farewell_ms + grace_ms * 9 / 10);
        co_await finish();
        look.close();
        // Gone means every process of it, not only the one the host started (a shell's child
        // that ignores SIGTERM outlives the shell).
        const std::uint64_t took_ms = (finished_at_ - from) / 1'000'000;
        if (exit_signal_ == SIGKILL || took_ms >= farewell_ms + grace_ms)
            co_return Ended::killed;
        co_return took_ms < farewell_ms ? Ended::by_itself : Ended::at_sigterm;
    }
    // Ends it, unless it is finished already: what a scenario does last.
    Task<> closed() {
        if (!seat_->finished())
            co_await end(0, 0);
    }

    const std::string& bytes() const { return bytes_; }
    // What it sent since the last call, for a report.
    std::string recent() { return bytes_.substr(std::exchange(reported_, bytes_.size())); }
    bool exited() const { return exited_; }
    // It exited, or closed its output: it will say no more.
    bool gone() const { return exited_ || output_ended_; }
    double seconds() const { return static_cast<double>(uv_hrtime() - started_) / 1e9; }
    std::vector<ProcessInfo> processes() const {
        return options_.group ? processes_in_group(options_.group(*seat_))
                              : std::vector<ProcessInfo>{};
    }
    // Whether a remote seat's bot ever connected (a process's: true).
    bool connected() const {
        const auto link = seat_->usage().remote;
        return !link || link->connections > 0;
    }
    // The processes it still ran shortly before end() would kill them.
    const std::vector<ProcessInfo>& left() const { return left_; }

  private:
    void on_output(std::string_view bytes) {
        bytes_ += bytes;
        std::vector<Input> inputs;
        reader_.feed(bytes, inputs);
        inputs_.insert(inputs_.end(), inputs.begin(), inputs.end());
        waker_.poke();
    }
    void on_output_end() {
        if (output_ended_)
            return;
        std::vector<Input> inputs;
        reader_.finish(inputs);
        inputs_.insert(inputs_.end(), inputs.begin(), inputs.end());
        output_ended_ = true;
        waker_.poke();
    }
    void on_exit(int signal) {
        exited_ = true;
        exit_signal_ = signal;
        waker_.poke();
    }
    Task<> finish() {
        co_await waker_.until([this] { return seat_->finished(); });
    }

    uv_loop_t* loop_;
    Waker& waker_;
    const Options& options_;
    std::unique_ptr<Seat> seat_;
    std::string farewell_;
    PlayerReader reader_{0};
    std::deque<Input> inputs_;
    std::optional<Input> last_;
    std::string bytes_;
    std::size_t reported_ = 0;
    std::uint64_t started_ = 0;
    std::uint64_t finished_at_ = 0;
    int exit_signal_ = 0;
    bool exited_ = false;
    bool output_ended_ = false;
    std::vector<ProcessInfo> left_;
};

std::string grid_example(std::string_view word) {
    return fmt::format("{:03}001{}", word.size(), word);
}

class Checker {
  public:
    Checker(uv_loop_t* loop, Options options, std::ostream& out)
        : options_(std::move(options)), out_(out), loop_(loop), waker_(loop) {}

    Task<> run() {
        out_ << fmt::format("Checking {} against the protocol, alone, in 3 scenarios{}:\n",
                            escape_for_terminal(options_.command),
                            remote() ? ", each a seat it connects to" : "");
        co_await scenario(&Checker::peel_and_end);
        if (ready_) {  // the other scenarios start the same way: no use when this one failed
            co_await scenario(&Checker::stale_peel);
            co_await scenario(&Checker::dumps_and_sigterm);
        }
        out_ << fmt::format("\n{} of {} checks passed.{}\n", outcome_.passed,
                            outcome_.passed + outcome_.failed,
                            outcome_.failed ? "" : " It is ready to play.");
        if (not_made_ > 0)
            out_ << fmt::format(
                "{} of how it ends {} not made: over a connection, its processes are not the "
                "host's to see (host --check CMD makes them, on this machine).\n",
                not_made_ == 1 ? "1 check" : fmt::format("{} checks", not_made_),
                not_made_ == 1 ? "was" : "were");
        if (remote() && stays_for_match(protocol_))
            out_ << "Its next game in one process (G) was not checked either: a seat serves "
                    "one game, and tells a v004 bot B. after its E.\n";
        out_.flush();
        if (on_done)
            on_done();
    }
    // Called as run() ends (from within it: it may start a timer, and no more).
    std::function<void()> on_done;
    const Outcome& outcome() const { return outcome_; }

  private:
    // A scenario with a bot of its own, ended (as a game ends its players) before the next.
    Task<> scenario(Task<> (Checker::*play)(Bot&)) {
        Bot bot(loop_, waker_, options_);
        co_await (this->*play)(bot);
        co_await bot.closed();
    }
    bool speaks_v2() const { return sequenced(protocol_); }
    bool remote() const { return options_.connect_ms > 0; }

    void record(Check check) {
        ++(check.passed ? outcome_.passed : outcome_.failed);
        if (!check.passed && !outcome_.first_failed)
            outcome_.first_failed = check;
        out_ << fmt::format("  {}  {}", check.passed ? "pass" : "FAIL", check.name);
        if (check.passed && !check.sent.empty())
            out_ << fmt::format(": {}", check.sent);
        out_ << "\n";
        if (!check.passed) {
            out_ << fmt::format("        sent:     {}\n",
                                check.sent.empty() ? "nothing" : check.sent);
            if (!check.expected.empty())
                out_ << fmt::format("        expected: {}\n", check.expected);
            if (!check.hint.empty())
                out_ << fmt::format("        hint:     {}\n", check.hint);
        }
        out_.flush();
    }

    // A check that failed, recorded: false, for a check that ends what it was part of.
    bool failed(Check check) {
        record(std::move(check));
        return false;
    }

    // What it sent since the last report, quoted; "" when nothing.
    std::string shown(Bot& bot) {
        const std::string recent = bot.recent();
        return recent.empty() ? std::string() : quote_bytes(recent, 160);
    }
    // The last of all it sent: for a protocol error in bytes an earlier check reported.
    static std::string tail(const Bot& bot) {
        const std::string& all = bot.bytes();
        return quote_bytes(all.substr(all.size() - std::min<std::size_t>(all.size(), 80)));
    }

    // For a message the protocol does not allow: the hint, and what it sent when the bytes
    // were reported by an earlier check.
    static void protocol_error(const Bot& bot, const std::string& reason, Check& check) {
        if (check.sent.empty())
            check.sent = tail(bot) + " (all it sent, to the end)";
        check.hint = bot.bytes().find_first_of("\r\n") != std::string::npos
                         ? fmt::format("{} ({})", hint_newline, reason)
                         : fmt::format("A protocol error: {}.", reason);
    }

    // Starts the bot and takes it through the handshake; false (with a failed check when
    // `report`) when it does not say it is ready.
    Task<bool> handshake(Bot& bot, bool report) {
        Check check{"starts, and says it is ready (r, or v002, v003 or v004 and R)"};
        if (const std::string error = bot.spawn(); !error.empty()) {
            check.hint = fmt::format("its command could not start: {}", error);
            co_return failed(check);
        }
        // A remote bot connects first: it has that long more.
        auto first = co_await bot.next(options_.connect_ms + options_.wait_ms);
        if (const auto* hello = first ? std::get_if<input::Hello>(&*first) : nullptr) {
            if (hello->version < protocol_v2) {
                check.sent = shown(bot);
                check.expected =
                    "v002, v003 or v004 (protocol v2), or r alone (the legacy protocol)";
                check.hint = fmt::format(
                    "It asked for version {}: v2 bots send v002, v003 or v004; version 1 is the "
                    "legacy protocol, whose bots start with r (and no v at all).",
                    hello->version);
                co_return failed(check);
            }
            const std::string answer = version_answer(hello->version);
            bot.send(answer);
            protocol_ = answered_version(hello->version, protocol_newest);
            first = co_await bot.next(options_.wait_ms);
            if (!first) {
                check.sent = shown(bot);
                check.expected = "R after the handshake";
                check.hint = fmt::format(
                    "It sent its handshake and was answered {}, but said no R in {} s. Send R as "
                    "soon as it can play (\"v002R\" at once is fine), and flush it.",
                    answer, options_.wait_ms / 1000.0);
                co_return failed(check);
            }
        } else if (first && std::holds_alternative<input::Ready>(*first)) {
            protocol_ = protocol_legacy;
        }
        if (first && std::holds_alternative<input::Ready>(*first)) {
            ready_ = true;
            check.passed = true;
            // A remote bot's seat does not close without an E: the one a host that stops its
            // game sends (a v004 bot's then B., as a seat's last game has).
            if (remote() && speaks_v2())
                bot.farewell(v2::end('L', 1, std::nullopt, "") +
                             (stays_for_match(protocol_) ? v2::bye() : ""));
            check.sent = fmt::format("{} after {:.2f} s ({})", shown(bot), bot.seconds(),
                                     speaks_v2() ? fmt::format("protocol v{:03}", protocol_)
                                                 : std::string("the legacy protocol"));
            if (report)
                record(check);
            co_return true;
        }
        check.expected = fmt::format(
            "\"r\" (legacy) or \"v002\" (or \"v003\") then \"R\" (v2), within {} s (the host's "
            "--ready-timeout)",
            options_.wait_ms / 1000.0);
        if (first) {
            const auto* violation = std::get_if<input::Violation>(&*first);
            check.sent = shown(bot);
            if (violation)
                protocol_error(bot, violation->reason, check);
            co_return failed(check);
        }
        if (!bot.connected()) {
            check.hint = fmt::format(
                "No bot connected to its seat within {} s: connect it to the URL above "
                "(bananagrams-connect --games 0 --retry 10 --words from-seat URL -- CMD); a "
                "--ready-timeout over "
                "60 s waits longer.",
                options_.connect_ms / 1000.0);
            co_return failed(check);
        }
        // Nothing in time: a slow start shows its bytes later; a bot that does not flush, only
        // as it ends.
        const bool exited = bot.exited();
        const double waited = bot.seconds();
        if (!exited && (first = co_await bot.next(2 * options_.wait_ms))) {
            check.sent = fmt::format("{} after {:.1f} s", shown(bot), bot.seconds());
            check.hint = fmt::format(
                "A slow start: it said nothing for {:.1f} s. The host waits --ready-timeout "
                "(here {} s; 10 s by default) for a player's first message, then plays without "
                "it. Start faster: load the word list once, from a compact file, and say r (or "
                "v002R) as soon as you can play.",
                waited, options_.wait_ms / 1000.0);
            co_return failed(check);
        }
        co_await bot.end(options_.grace_ms, options_.grace_ms);
        check.sent = shown(bot);
        check.hint = check.sent.empty() ? std::string(hint_silent) : std::string(hint_flush);
        co_return failed(check);
    }

    std::string hand_message(std::string_view hand) const {
        return speaks_v2() ? v2::hand(0, hand) : legacy_message(options_.legacy_dialect, hand);
    }
    std::string peel_name() const { return speaks_v2() ? "P" : "p"; }

    // Its next move, when it is a Move; otherwise nullopt, with what it sent and a hint in
    // `check`: `idle` when it made no move in time, `other` when it made another.
    template <class Move>
    Task<std::optional<Move>> next_move(Bot& bot, Check& check, std::string_view idle,
                                        std::string_view other) {
        const std::uint64_t move_ms = std::max(options_.wait_ms, options_.move_ms);
        const auto input = co_await bot.next(move_ms);
        check.sent = shown(bot);
        if (!input) {
            check.hint = bot.exited()
                             ? "It exited instead (its stderr, if any, is above as [bot] lines)."
                             : fmt::format("It made no move in {} s. {}", move_ms / 1000.0, idle);
            co_return std::nullopt;
        }
        if (const auto* violation = std::get_if<input::Violation>(&*input)) {
            protocol_error(bot, violation->reason, check);
            co_return std::nullopt;
        }
        const auto* move = std::get_if<Move>(&*input);
        if (!move)
            check.hint = other;
        co_return move ? std::optional<Move>(*move) : std::nullopt;
    }

    // Waits for a peel of `hand` stating `number` (v2); fills `check` and says whether it is.
    Task<bool> expect_peel(Bot& bot, std::string_view hand, int number, std::string_view word,
                           Check& check) {
        check.expected = fmt::format(
            "a peel of exactly {}: {}{}{} (or any legal grid of those tiles)", hand, peel_name(),
            speaks_v2() ? fmt::format("{:04}", number) : "", grid_example(word));
        const auto peel = co_await next_move<input::Peel>(
            bot, check, "Peel as soon as every tile of the hand is on the grid.",
            "It did not peel, though every tile fits one word.");
        if (!peel)
            co_return false;
        // A grid of the whole hand is fresh whatever number it states (protocol-v2.md, rule
        // 3), but for one from the future.
        if (speaks_v2() && peel->reflects > number) {
            check.hint = fmt::format(
                "Its peel says it reflects peel {:04}, which is from the future: the newest "
                "peel is {:04} (from H, P and N messages).",
                peel->reflects.value_or(0), number);
            co_return false;
        }
        auto grid = parse_grid(peel->grid);
        if (const auto* error = std::get_if<GridError>(&grid)) {
            check.hint = fmt::format("Its grid is malformed: {}.", error->message);
            co_return false;
        }
        const auto tiles = LetterCounts::from_letters(hand);
        const Verdict verdict = judge(std::get<Grid>(grid), *tiles, *options_.dictionary);
        if (verdict.kind == Verdict::Kind::wrong_tiles) {
            check.hint = fmt::format(
                "A grid must hold exactly the hand, every tile and no other: {}. Keep every "
                "tile the host sends (the hand, each peel's tile, a dump's three) and take the "
                "dumped one out.",
                verdict.message);
            co_return false;
        }
        if (!verdict.legal()) {
            check.hint = fmt::format("Its grid is not legal: {}.", verdict.message);
            co_return false;
        }
        check.passed = true;
        co_return true;
    }

    // Scenario 1: the deal, a peel accepted, the tile that comes with it, and the end.
    Task<> peel_and_end(Bot& bot) {
        if (!co_await handshake(bot, true))
            co_return;
        bot.send(hand_message(deal));
        Check first{fmt::format("answers the deal ({}) with a peel of its hand", deal)};
        if (!co_await expect_peel(bot, deal, 0, "CAT", first))
            co_return record(first);
        record(first);
        // Accepted as peel 1, which deals it an S (its tile before its ACK).
        bot.send(speaks_v2() ? v2::tile(1, dealt_tile, 100) + v2::ack(1)
                             : legacy_message(options_.legacy_dialect, std::string(1, dealt_tile)));
        Check again{"takes the tile its accepted peel dealt it, and peels again"};
        const std::string hand = fmt::format("{}{}", deal, dealt_tile);
        if (!co_await expect_peel(bot, hand, 1, "CATS", again))
            co_return record(again);
        record(again);
        if (stays_for_match(protocol_) && !remote()) {
            // Bananas, then its next game: v004 across two games. (A seat serves one game: over
            // one, a v004 bot is told B. after its E, as below.)
            bot.send(v2::ack(2) + v2::end('W', 1, 0, "") + v2::next_game(0, 2));
            if (!co_await next_game(bot))
                co_return;
            bot.send(v2::ack(1) + v2::end('W', 1, 0, "") + v2::bye());
        } else if (speaks_v2()) {
            // Bananas: its peel ends the game (A and no tile), and it has won.
            bot.send(v2::ack(2) + v2::end('W', 1, 0, "") +
                     (stays_for_match(protocol_) ? v2::bye() : ""));
            bot.farewell("");
        }
        if (remote()) {
            ++not_made_;
        } else if (speaks_v2()) {
            Check end{stays_for_match(protocol_)
                          ? "exits by itself when told there is no next game (B., then the end "
                            "of its input)"
                          : "exits by itself at the end of the game (E, then the end of its "
                            "input)"};
            const auto ended = co_await bot.end(options_.grace_ms, options_.grace_ms);
            end.passed = ended == Bot::Ended::by_itself || ended == Bot::Ended::already;
            end.sent = shown(bot);
            if (!end.passed) {
                end.expected = fmt::format("to exit within {} ms of E", options_.grace_ms);
                end.hint = fmt::format(
                    "Not exiting at E: after E the host closes its input (a read returns 0 "
                    "bytes, end of file); exit then. It was still running {} ms later and was "
                    "{}.",
                    options_.grace_ms,
                    ended == Bot::Ended::killed ? "killed (it ignored SIGTERM too)"
                                                : "stopped by SIGTERM");
            }
            record(end);
        } else {
            co_await sigterm(bot,
                             "exits at SIGTERM when the game is over (the legacy protocol's end)");
        }
    }

    // v004: after its E it stays, answers G with R, and plays its next game from a fresh hand,
    // its peels numbered from 0000 again; false (recorded) when it does not.
    Task<bool> next_game(Bot& bot) {
        Check ready{"stays after E, and answers G (its next game) with R"};
        ready.expected = "R after G0102.";
        std::optional<input::Ready> answered;
        // A peel or dump it sent before it read E is ignored, as the host ignores it.
        for (;;) {
            answered = co_await next_move<input::Ready>(
                bot, ready,
                "After E a v004 bot reads on: G begins its next game (answer R), B. says there "
                "is none.",
                "Between games a v004 bot sends nothing but R, once G has come (a P or D sent "
                "before it read E is ignored).");
            const auto& last = bot.last_input();
            if (answered || !last ||
                !(std::holds_alternative<input::Peel>(*last) ||
                  std::holds_alternative<input::Dump>(*last)))
                break;
        }
        if (!answered) {
            if (!bot.last_input() && bot.gone())
                ready.hint =
                    "It exited after E: a v004 bot stays until it is told B. (no next game), "
                    "and answers G (its next game) with R.";
            co_return failed(ready);
        }
        ready.passed = true;
        record(ready);
        bot.send(hand_message(deal));
        Check second{"plays its next game from its new hand, its peels numbered from 0000 again"};
        const bool played = co_await expect_peel(bot, deal, 0, "CAT", second);
        if (!played && second.hint.find("from the future") != std::string::npos)
            second.hint +=
                " Each game starts afresh: forget the last game's hand and peel numbers at G.";
        record(second);
        co_return played;
    }

    // Scenario 2: its peel raced another player's: stale, answered with a NAK in v2 (and
    // nothing in the legacy protocol, whose bot just sees the new tile).
    Task<> stale_peel(Bot& bot) {
        if (!co_await handshake(bot, false))
            co_return;
        bot.send(hand_message(deal));
        Check first{"answers the deal with a peel of its hand"};
        if (!co_await expect_peel(bot, deal, 0, "CAT", first))
            co_return record(first);
        bot.recent();
        bot.send(speaks_v2()
                     ? v2::tile(1, dealt_tile, 100) + v2::nak(1, 0, std::string(1, dealt_tile))
                     : legacy_message(options_.legacy_dialect, std::string(1, dealt_tile)));
        Check again{speaks_v2()
                        ? "after a stale peel (N), peels again with the tile its grid lacked"
                        : "a tile that arrives after its peel: peels again with it"};
        co_await expect_peel(bot, fmt::format("{}{}", deal, dealt_tile), 1, "CATS", again);
        record(again);
    }

    // Expects a dump of `letter`; fills `check`.
    Task<bool> expect_dump(Bot& bot, char letter, std::string_view hand, Check& check) {
        check.expected =
            fmt::format("{}{}: the hand {} holds no word", speaks_v2() ? "D" : "d", letter, hand);
        const auto dump = co_await next_move<input::Dump>(
            bot, check,
            "A bot that cannot place a tile dumps it: D and the letter (d in the legacy "
            "protocol).",
            "It did not dump, though no word can be made of its hand.");
        if (!dump)
            co_return false;
        if (dump->letter != letter) {
            check.hint =
                fmt::format("It dumped {}, which it does not hold.", quote_byte(dump->letter));
            co_return false;
        }
        check.passed = true;
        co_return true;
    }

    // Scenario 3: a hand that holds no word, a dump answered, a dump refused, then SIGTERM.
    Task<> dumps_and_sigterm(Bot& bot) {
        if (!co_await handshake(bot, false))
            co_return;
        bot.send(hand_message(stuck));
        Check dump{fmt::format("dumps a tile it cannot place (its hand is {})", stuck)};
        if (!co_await expect_dump(bot, 'Q', stuck, dump))
            co_return record(dump);
        record(dump);
        bot.send(speaks_v2() ? v2::dumped("QQQ") : legacy_message(options_.legacy_dialect, "QQQ"));
        Check answer{"takes its dump's three tiles (QQQ), and dumps again"};
        if (!co_await expect_dump(bot, 'Q', "QQQQ", answer))
            co_return record(answer);
        record(answer);
        // The bunch is short: refused, the Q stays its own (a legacy bot gets its letter back).
        const auto refuse = [&] {
            bot.send(speaks_v2() ? v2::refused('Q', 2)
                                 : legacy_message(options_.legacy_dialect, "Q"));
        };
        refuse();
        Check refused{"after a refused dump, keeps its tile and plays on by the rules"};
        refused.expected = "nothing, or a dump of Q (refused again)";
        // Watched for this long in all, however many times it dumps again: a bot that dumps
        // without end is refused without end, and holds no check open for it.
        const auto now_ms = [] { return uv_hrtime() / 1'000'000; };
        const std::uint64_t watch_until =
            now_ms() + std::min<std::uint64_t>(options_.wait_ms, 1'500);
        for (;;) {
            const std::uint64_t now = now_ms();
            const auto input =
                now < watch_until ? co_await bot.next(watch_until - now) : std::optional<Input>();
            if (!input) {
                refused.passed = !bot.exited();
                refused.hint = "It exited: a refusal does not end the game.";
                break;
            }
            if (const auto* d = std::get_if<input::Dump>(&*input); d && d->letter == 'Q') {
                refuse();
                continue;
            }
            refused.sent = shown(bot);
            if (const auto* violation = std::get_if<input::Violation>(&*input))
                protocol_error(bot, violation->reason, refused);
            else
                refused.hint =
                    "Its hand is QQQQ (the refused Q is still its own): no peel or "
                    "other dump is legal.";
            break;
        }
        if (refused.sent.empty())
            refused.sent = shown(bot);
        record(refused);
        if (remote())
            ++not_made_;
        else if (!bot.exited())
            co_await sigterm(bot, "exits at SIGTERM in the middle of a game, within the grace");
    }

    Task<> sigterm(Bot& bot, std::string name) {
        const auto ended = co_await bot.end(0, options_.grace_ms);
        Check check{std::move(name)};
        check.passed = ended != Bot::Ended::killed;
        check.sent = shown(bot);
        if (!check.passed) {
            check.expected = fmt::format("to exit within {} ms of SIGTERM", options_.grace_ms);
            // The sandbox's init is no part of the bot.
            auto left = bot.left();
            std::erase_if(left, [](const auto& p) { return p.name == "bwrap"; });
            check.hint = fmt::format(
                "Ignoring SIGTERM: {} still ran {} ms after SIGTERM, and was killed. Leave "
                "SIGTERM's default (it ends the process), or exit from its handler.",
                left.empty() ? "it" : names_of(left), options_.grace_ms);
            if (std::any_of(left.begin(), left.end(),
                            [](const auto& p) { return is_shell(p.name); }))
                check.hint +=
                    " A shell ignored it too, and a shell passes the signals it ignores (trap '' "
                    "TERM) on to what it starts: drop the trap, and start your bot with exec "
                    "(\"exec python3 bot.py\"), so that no `sh` stands between the host and it.";
        }
        record(check);
    }

    Options options_;
    std::ostream& out_;
    uv_loop_t* loop_;
    Waker waker_;
    int protocol_ = 0;
    int not_made_ = 0;    // checks of a remote bot's processes
    bool ready_ = false;  // it has said it is ready once
    Outcome outcome_;
};

}  // namespace

bool has_scenario_words(const Dictionary& dictionary, std::string* missing) {
    for (const auto& word : scenario_words)
        if (!dictionary.contains(word)) {
            *missing = word;
            return false;
        }
    return true;
}

struct Run::State {
    State(uv_loop_t* loop, Options options, std::ostream& out)
        : checker(loop, std::move(options), out), task(checker.run()) {}
    Checker checker;
    Task<> task;
};

Run::Run(uv_loop_t* loop, Options options, std::ostream& out,
         std::function<void(const Outcome&)> done)
    : state_(std::make_unique<State>(loop, std::move(options), out)),
      done_(std::move(done)),
      told_(loop, [this] {
          // Told from a timer of its own: `done` may destroy the run.
          if (auto done = std::exchange(done_, nullptr))
              done(state_->checker.outcome());
      }) {
    state_->checker.on_done = [this] { told_.start(0); };
    state_->task.start();
}

Run::~Run() = default;

int run(EventLoop& loop, const Options& options, std::ostream& out) {
    std::optional<Outcome> outcome;
    Run running(loop.get(), options, out, [&](const Outcome& o) { outcome = o; });
    while (!outcome)
        loop.run_once();
    return outcome->failed;
}

}  // namespace bg::checker
