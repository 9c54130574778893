#include "arena/front_play.hpp"

#include <csignal>

#include <fmt/format.h>

#include "cli/log.hpp"
#include "core/text.hpp"

namespace bg::arena {

FrontPlay::FrontPlay(uv_loop_t* loop, Store& store, Venue& venue, Lobby& lobby, remote::Desk& desk,
                     const Settings& settings, LoopLag* lag, const std::string& cache, Told told)
    : loop_(loop),
      store_(store),
      venue_(venue),
      lobby_(lobby),
      settings_(settings),
      lag_(lag),
      told_(std::move(told)),
      words_(fmt::format("{:016x}", venue.dictionary().stats().fingerprint)),
      seats_(venue, desk, settings.lobby.grace_ms),
      commands_(venue, store.jobs(), cache),
      sweep_(loop, [this] { sweep(); }) {}

FrontPlay::~FrontPlay() = default;

void FrontPlay::turn(const std::string& name) {
    name_ = name;
    renew();
    claim();
    finish_pending();
}

void FrontPlay::claim() {
    while (!stopping_) {
        std::optional<JobPlan> plan;
        if (!with_store_("claiming a match",
                         [&] { plan = store_.jobs().claim(name_, words_, 0, lease_ms, name_); }) ||
            !plan)
            return;
        begin(*plan);
    }
}

std::variant<std::vector<int>, std::string> FrontPlay::commands(const JobPlan& job) {
    std::vector<int> all;
    for (const JobEntrant& e : job.entrants) {
        if (e.connection) {
            all.push_back(0);
            continue;
        }
        auto command = commands_.command_of(e);
        if (auto* error = std::get_if<std::string>(&command))
            return fmt::format("{} could not be started: {}", e.name, *error);
        all.push_back(std::get<int>(command));
    }
    return all;
}

void FrontPlay::entrants(const JobPlan& job, const std::vector<int>& commands,
                         MatchPlay::Plan& plan) {
    auto context = std::make_shared<MatchContext>();
    context->match = job.match;
    context->rotations = static_cast<int>(job.entrants.size());
    for (const JobEntrant& e : job.entrants)
        context->table.push_back({e.name, stats::Belief{e.mu, e.sigma}});
    for (std::size_t i = 0; i < job.entrants.size(); ++i) {
        const JobEntrant& e = job.entrants[i];
        MatchSeat seat;
        seat.bot.id = e.bot;
        seat.bot.name = e.name;
        seat.entry.id = e.entry;
        seat.entry.bot = e.bot;
        seat.entry.label = e.label;
        if (e.connection) {
            seat.connection = e.connection;
            told_.taken(e.connection, job.match);
        } else {
            seat.command = commands[i];
            if (e.sha256.empty())
                seat.bot.command = e.command;
        }
        plan.entrants.push_back(seats_.entrant(seat, lobby_, context));
    }
}

void FrontPlay::begin(const JobPlan& job) {
    MatchPlay::Plan plan;
    plan.id = job.match;
    plan.seed = job.seed;
    plan.logs = settings_.logs;
    plan.loop = lag_;
    // Every bot's command had before any connection is taken: one that cannot be leaves them all
    // waiting, said again to the holder after this match (void).
    auto setup = job_setup(job, venue_, settings_.game.dictionary);
    auto commands = std::holds_alternative<std::string>(setup)
                        ? std::variant<std::vector<int>, std::string>(std::get<std::string>(setup))
                        : this->commands(job);
    if (auto* why = std::get_if<std::string>(&commands)) {
        log::error("match {} cannot be played here: {}; this front takes no match for {} s",
                   job.match, escape_for_terminal(*why), backoff_ms / 1000);
        backoff_until_ = uv_now(loop_) + backoff_ms;
        pending_.push_back({job.match, JobResult{false, *why, {}}, {}, {}});
        finish_pending();
        std::vector<Connection> connections;
        for (const JobEntrant& e : job.entrants)
            if (e.connection)
                connections.push_back(e.connection);
        return told_.not_played(connections, job.match);
    }
    plan.base = std::get<GameSetup>(setup);
    entrants(job, std::get<std::vector<int>>(commands), plan);
    Playing& p = playing_[job.match];
    p.renewed_ms = uv_now(loop_);
    p.play = std::make_unique<MatchPlay>(loop_, venue_, seats_, std::move(plan),
                                         [this] { sweep_.start(0); });
    if (const std::string error = p.play->start(); !error.empty()) {  // over: swept
        log::error("match {} could not begin: {}", job.match, escape_for_terminal(error));
        sweep_.start(0);
    }
}

void FrontPlay::release(const std::vector<Entrant>& entrants) {
    std::vector<std::string> tokens;
    for (const Entrant& e : entrants)
        if (!e.seat_token.empty()) {
            tokens.push_back(e.seat_token);
            seats_.remove(e.command);
        }
    finish_pending();  // its result stored before its connections are said to wait again
    lobby_.match_over(tokens);
}

void FrontPlay::renew() {
    const std::uint64_t now = uv_now(loop_);
    for (auto& [id, p] : playing_) {
        if (now < p.renewed_ms + lease_ms / 3 || p.play->over())
            continue;
        bool held = true;
        const int match = id;
        if (!with_store_("renewing a lease",
                         [&] { held = store_.jobs().renew(match, name_, lease_ms); }))
            continue;
        p.renewed_ms = now;
        if (!held) {
            log::warning("match {} is no longer this front node's (its lease ran out): it ends now",
                         id);
            p.play->abort(SIGTERM);
        }
    }
}

void FrontPlay::sweep() {
    for (auto it = playing_.begin(); it != playing_.end();) {
        MatchPlay& play = *it->second.play;
        if (!play.over()) {
            ++it;
            continue;
        }
        pending_.push_back(job_done(it->first, play, name_));
        release(play.plan().entrants);
        play.dismiss();
        leaving_.push_back(std::move(it->second.play));
        it = playing_.erase(it);
    }
    std::erase_if(leaving_, [](const auto& play) { return play->finished(); });
    if (!leaving_.empty())
        sweep_.start(100);
    stopped_if_done();
}

void FrontPlay::finish_pending() {
    store_played(store_.jobs(), with_store_, pending_, name_, "this front node's", "played here");
}

void FrontPlay::stop(std::function<void()> done) {
    on_stopped_ = std::move(done);
    stopping_ = true;
    for (auto& [id, p] : playing_)
        p.play->abort(SIGTERM);
    sweep_.start(0);
}

void FrontPlay::stopped_if_done() {
    if (!stopping_ || !playing_.empty() || !leaving_.empty() || !on_stopped_)
        return;
    finish_pending();  // what cannot be stored now is void as its lease runs out
    pending_.clear();
    std::exchange(on_stopped_, nullptr)();
}

}  // namespace bg::arena
