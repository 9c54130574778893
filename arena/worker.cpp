#include "arena/worker.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "arena/admin.hpp"
#include "arena/job_play.hpp"
#include "arena/jobs.hpp"
#include "arena/match_play.hpp"
#include "arena/wake.hpp"
#include "cli/log.hpp"
#include "cli/options.hpp"
#include "core/text.hpp"
#include "match/venue.hpp"
#include "transport/handles.hpp"
#include "transport/loop_lag.hpp"

namespace bg::arena {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

std::string names(const JobPlan& plan) {
    std::string all;
    for (const JobEntrant& e : plan.entrants)
        all += (all.empty() ? "" : ", ") + e.name;
    return all;
}

// How long a worker takes no match after its machine failed one (a bot that cannot be started
// here, logs that cannot be written).
constexpr std::uint64_t backoff_ms = 60'000;

// The worker's loop late: its games' players waited as long (the arena weighs it, as its own).
void say_lag(bool over, const LagWindow::Figures& f) {
    if (over)
        log::warning("the worker's loop ran {:.0f} ms late", f.max_ms);
}

// How long a worker woken by a queued match waits before it claims, with `busy` of its `cores`
// playing: up to 20 ms at random, and 20 ms more the busier it is, so that the workers woken
// together claim in a random order, the less busy first.
std::uint64_t claim_delay_ms(int busy, int cores) {
    static std::mt19937 random{std::random_device{}()};
    return std::uniform_int_distribution<std::uint64_t>(0, 20)(random) +
           static_cast<std::uint64_t>(20 * busy / std::max(cores, 1));
}

class Worker {
  public:
    Worker(uv_loop_t* loop, Store& store, WorkerSettings settings, std::unique_ptr<Venue> venue)
        : loop_(loop),
          jobs_(store.jobs()),
          s_(std::move(settings)),
          venue_(std::move(venue)),
          words_(fmt::format("{:016x}", venue_->dictionary().stats().fingerprint)),
          lag_(std::make_unique<LoopLag>(loop, 10, 50, say_lag)),
          poll_(loop, [this] { poll(); }),
          sweep_(loop, [this] { sweep(); }),
          claim_soon_(loop, [this] { claim(); }),
          commands_(*venue_, jobs_, s_.cache),
          // A match queued: claimed at once, not at the next poll; the workers it wakes claim in
          // a random order, the less busy first (as their polls' phases spread them).
          wake_(loop, jobs_.connection(), Jobs::queued_channel,
                [this] { claim_soon_.start(claim_delay_ms(s_.cores - free_cores(), s_.cores)); }) {}

    void start() {
        signals_.emplace_back(loop_, SIGTERM, [this](int) { stop(); });
        signals_.emplace_back(loop_, SIGINT, [this](int) { stop(); });
        log::info("worker {} plays matches of word list {} on {} cores (its logs in {})", s_.name,
                  words_, s_.cores, s_.logs);
        poll_.start(0);
    }

  private:
    struct Playing {
        std::unique_ptr<MatchPlay> play;
        int players = 0;
        std::uint64_t renewed_ms = 0;
    };

    int free_cores() const {
        int used = 0;
        for (const auto& [id, p] : playing_)
            used += p.players;
        return s_.cores - used;
    }

    void poll() {
        const std::uint64_t now = uv_now(loop_);
        // Its cores, free to the arena unless it stops or backs off.
        const int cores = stopping_ || now < backoff_until_ ? 0 : s_.cores;
        with_store_("saying it is there",
                    [&] { jobs_.hello(s_.name, host_name(), cores, words_); });
        renew(now);
        finish_pending();
        if (stopping_) {
            if (!aborted_ && now >= stop_at_ms_ && !playing_.empty()) {
                aborted_ = true;
                for (auto& [id, p] : playing_)
                    p.play->abort(SIGTERM);
            }
            if (stopped(now))
                return close();
            poll_.start(s_.poll_ms);
            return;
        }
        wake_.notified();  // what it was told until now, the claim takes
        claim();           // (none while it backs off)
        wake_.rearm();
        poll_.start(s_.poll_ms);
    }

    // What its free cores hold.
    void claim() {
        if (stopping_ || closed_ || uv_now(loop_) < backoff_until_)
            return;
        while (free_cores() >= 2) {
            std::optional<JobPlan> plan;
            if (!with_store_(
                    "claiming a match",
                    [&] { plan = jobs_.claim(s_.name, words_, free_cores(), s_.lease_ms); }) ||
                !plan)
                break;
            begin(*plan);
        }
    }

    // Each lease renewed every third of it; a claim no longer its own played no further.
    void renew(std::uint64_t now) {
        for (auto& [id, p] : playing_) {
            if (now < p.renewed_ms + s_.lease_ms / 3 || p.play->over())
                continue;
            bool held = true;
            const int match = id;
            if (!with_store_("renewing a lease",
                             [&] { held = jobs_.renew(match, s_.name, s_.lease_ms); }))
                continue;
            p.renewed_ms = now;
            if (!held) {
                log::warning(
                    "match {} is no longer this worker's (its lease ran out, or the "
                    "arena ended it): it ends now",
                    id);
                p.play->abort(SIGTERM);
            }
        }
    }

    void begin(const JobPlan& plan) {
        MatchPlay::Plan play_plan;
        play_plan.id = plan.match;
        play_plan.seed = plan.seed;
        play_plan.logs = s_.logs;
        play_plan.loop = lag_.get();
        auto setup = job_setup(plan, *venue_, s_.dictionary);
        std::string why;
        if (auto* error = std::get_if<std::string>(&setup))
            why = *error;
        else
            play_plan.base = std::get<GameSetup>(setup);
        for (const JobEntrant& e : plan.entrants) {
            if (!why.empty())
                break;
            Entrant entrant;
            entrant.bot.id = e.bot;
            entrant.bot.name = e.name;
            if (e.sha256.empty())
                entrant.bot.command = e.command;
            entrant.entry.id = e.entry;
            entrant.entry.bot = e.bot;
            entrant.entry.label = e.label;
            auto command = commands_.command_of(e);
            if (auto* error = std::get_if<std::string>(&command))
                why = fmt::format("{} could not be started: {}", e.name, *error);
            else
                entrant.command = std::get<int>(command);
            play_plan.entrants.push_back(std::move(entrant));
        }
        log::info("match {} claimed: {}", plan.match, names(plan));
        if (!why.empty()) {
            log::error("match {} cannot be played here: {}", plan.match, escape_for_terminal(why));
            pending_.push_back({plan.match, JobResult{false, why, {}}, {}, {}});
            return back_off(why);
        }
        const int id = plan.match;
        auto play = std::make_unique<MatchPlay>(loop_, *venue_, *venue_, std::move(play_plan),
                                                [this] { sweep_.start(0); });
        Playing& p = playing_[id];
        p.players = static_cast<int>(plan.entrants.size());
        p.renewed_ms = uv_now(loop_);
        p.play = std::move(play);
        if (const std::string error = p.play->start(); !error.empty()) {
            log::error("match {} could not begin: {}", id, escape_for_terminal(error));
            back_off(error);
            sweep_.start(0);
        }
    }

    // This machine's fault: no match claimed for a while (the arena counts none of its cores),
    // rather than one after another voided.
    void back_off(const std::string& why) {
        backoff_until_ = uv_now(loop_) + backoff_ms;
        log::warning("this worker takes no match for {} s: {}", backoff_ms / 1000,
                     escape_for_terminal(why));
    }

    // Matches over: their results stored (or kept to be, while the store cannot be reached);
    // their players let go.
    void sweep() {
        for (auto it = playing_.begin(); it != playing_.end();) {
            if (!it->second.play->over()) {
                ++it;
                continue;
            }
            MatchPlay& play = *it->second.play;
            if (play.logs_failed())
                back_off("its games' logs cannot be written: " + play.why());
            JobDone done = job_done(it->first, play, s_.name);
            pending_.push_back(std::move(done));
            play.dismiss();
            leaving_.push_back(std::move(it->second.play));
            it = playing_.erase(it);
        }
        finish_pending();
        std::erase_if(leaving_, [](const auto& play) { return play->finished(); });
        if (!leaving_.empty())
            sweep_.start(100);
        if (!stopping_)
            poll_.start(0);  // cores are free
        else if (stopped(uv_now(loop_)))
            close();
    }

    // Whether a stopping worker is done: nothing of its matches left, and their results stored;
    // or, where the store cannot be reached, given up once their leases have run out (their
    // results would be refused) or at a second signal.
    bool stopped(std::uint64_t now) {
        if (!playing_.empty() || !leaving_.empty())
            return false;
        if (pending_.empty())
            return true;
        if (!again_ && now < stop_at_ms_ + s_.lease_ms)
            return false;
        log::warning(
            "{} match{} result could not be stored (the store cannot be reached): the "
            "arena voids them as their leases run out",
            pending_.size(), pending_.size() == 1 ? "'s" : "es'");
        pending_.clear();
        return true;
    }

    void finish_pending() {
        store_played(jobs_, with_store_, pending_, s_.name, "this worker's", "played");
    }

    void stop() {
        if (stopping_) {
            stop_at_ms_ = 0;  // again: now
            again_ = true;
            poll_.start(0);
            return;
        }
        stopping_ = true;
        stop_at_ms_ = uv_now(loop_) + s_.stop_grace_ms;
        log::info(
            "stopping: no new match; {} playing may finish within {} s (again: end them "
            "now)",
            playing_.size(), s_.stop_grace_ms / 1000);
        poll_.start(0);
    }

    void close() {
        if (closed_)
            return;
        closed_ = true;
        with_store_("saying goodbye", [&] { jobs_.goodbye(s_.name); });
        poll_.stop();
        sweep_.stop();
        claim_soon_.stop();
        wake_.stop();
        signals_.clear();
        log::info("worker {} stopped", s_.name);
    }

    uv_loop_t* loop_;
    Jobs& jobs_;
    WorkerSettings s_;
    std::unique_ptr<Venue> venue_;
    std::string words_;
    std::unique_ptr<LoopLag> lag_;  // its stalls, which the arena weighs as a game's
    Timer poll_, sweep_, claim_soon_;
    std::vector<SignalWatch> signals_;
    std::map<int, Playing> playing_;
    std::vector<std::unique_ptr<MatchPlay>> leaving_;
    std::vector<JobDone> pending_;
    JobCommands commands_;
    bool stopping_ = false, again_ = false, aborted_ = false, closed_ = false;
    std::uint64_t stop_at_ms_ = 0, backoff_until_ = 0;
    StoreCalls with_store_;
    Wake wake_;
};

}  // namespace

int work(Store& store, const po::variables_map& vm) {
    WorkerSettings settings;
    try {
        settings = read_worker(vm);
    } catch (const po::error& e) {
        log::error("{}", e.what());
        return exit_usage;
    }
    std::error_code error;
    for (const std::string& folder : {settings.logs, settings.cache})
        if (fs::create_directories(folder, error); error) {
            log::error("{} cannot be made: {}", escape_for_terminal(folder), error.message());
            return exit_database;
        }
    // No player may read the store's secrets, the logs or another bot's files.
    std::vector<std::string> secret_paths = store.private_paths();
    secret_paths.push_back(settings.cache);
    auto opened = Venue::open(
        players_plan(settings.players, settings.dictionary, settings.logs, secret_paths));
    if (auto* why = std::get_if<std::string>(&opened)) {
        log::error("{}", escape_for_terminal(*why));
        return exit_database;
    }
    auto venue = std::move(std::get<std::unique_ptr<Venue>>(opened));
    if (auto why = venue->prepare_players()) {
        log::error("{}", escape_for_terminal(*why));
        return 5;
    }
    EventLoop loop;
    {
        Worker worker(loop.get(), store, std::move(settings), std::move(venue));
        worker.start();
        loop.run();
    }
    loop.run();  // the handles' closes
    return exit_done;
}

}  // namespace bg::arena
