#include "arena/handed_out.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cli/log.hpp"

namespace bg::arena {

HandedOut::HandedOut(uv_loop_t* loop, Store& store, const Settings& settings, std::uint64_t words,
                     std::function<void(Input)> feed, std::function<std::uint64_t()> now)
    : store_(store),
      feed_(std::move(feed)),
      now_(std::move(now)),
      words_(settings.core.workers || settings.shows_fronts ? fmt::format("{:016x}", words) : ""),
      workers_(settings.core.workers) {
    if (settings.shows_fronts)
        fronts_ = std::make_unique<FrontSeats>(store_, *this, feed_, now_);
    if (!words_.empty())
        wake_.emplace(loop, store_.jobs().connection(), Jobs::played_channel,
                      [this] { look(false); });
}

HandedOut::~HandedOut() = default;

void HandedOut::hand_out(const effect::Play& play, const GameSetup& game, std::uint64_t seed) {
    const effect::Play at_front = fronts_ && !play.node.empty() ? fronts_->placed(play) : play;
    handed_[play.match] = play.node;
    const std::string why = queue(at_front, game, seed);
    if (why.empty())
        return;
    log::error("match {} cannot be played by {}: {}", play.match,
               play.node.empty() ? "the workers" : "front node " + play.node, why);
    feed_(over(play.match, why));
    if (fronts_ && !play.node.empty())
        fronts_->unplaced(at_front);
}

void HandedOut::fronts_gone() {
    std::vector<std::pair<int, std::string>> ending;
    try {
        for (const int match : store_.jobs().queued())
            if (const auto found = handed_.find(match);
                found != handed_.end() && !found->second.empty() && !fronts_->sees(found->second)) {
                store_.jobs().cancel(match);
                ending.emplace_back(match, found->second);
            }
    } catch (const std::exception& e) {
        log::warning("the matches of front nodes gone could not be ended in the store: {}",
                     e.what());
    }
    for (const auto& [match, node] : ending)
        feed_(over(match, fmt::format("its front node {} was gone before it began", node)));
}

std::string HandedOut::queue(const effect::Play& play, const GameSetup& game, std::uint64_t seed) {
    try {
        JobPlan plan;
        plan.match = play.match;
        plan.seed = seed;
        GameSetup setup = game;
        setup.dictionary.clear();  // the worker's own path to the list of this fingerprint
        plan.game = to_json(setup);
        const auto versions = store_.hosted();
        for (const MatchSeat& seat : play.seats) {
            JobEntrant e{seat.bot.id, seat.bot.name, seat.entry.id, seat.entry.label, "", ""};
            e.mu = seat.entry.belief.mu;
            e.sigma = seat.entry.belief.sigma;
            if (!seat.command) {  // a connection's, at the front that plays it
                e.connection = seat.connection;
            } else if (seat.bot.command) {
                e.command = *seat.bot.command;
            } else {
                const auto v = std::find_if(versions.begin(), versions.end(), [&](const auto& h) {
                    return h.entry == seat.entry.id;
                });
                if (v == versions.end())
                    return fmt::format("{} version {} is not hosted", seat.bot.name,
                                       seat.entry.label);
                if (!store_.jobs().has_archive(v->sha256))
                    return fmt::format(
                        "{} version {} was submitted before the store kept "
                        "archives: its author submits it again for workers to "
                        "play it",
                        seat.bot.name, seat.entry.label);
                e.command = v->command;
                e.sha256 = v->sha256;
            }
            plan.entrants.push_back(std::move(e));
        }
        store_.jobs().queue(plan, words_, static_cast<int>(play.seats.size()), play.node);
        return "";
    } catch (const std::exception& e) {
        return fmt::format("it could not be queued: {}", e.what());
    }
}

input::Played HandedOut::over(int match, std::string why) {
    handed_.erase(match);
    input::Played played;
    played.match = match;
    played.why = std::move(why);
    played.now_ms = now_();
    return played;
}

void HandedOut::look() {
    if (words_.empty())
        return;
    const std::uint64_t now = now_();
    const bool all = looked_ms_ == 0 || now >= looked_ms_ + full_look_ms;
    if (all)
        looked_ms_ = now;
    // Each tick asks: a notification read with a statement's result woke no poll.
    if (wake_->notified() || all)
        look(all);
    wake_->rearm();
    if (fronts_)
        fronts_->look();
}

void HandedOut::look(bool all) {
    std::vector<Input> inputs;
    try {
        if (all && workers_)
            look_at_workers(inputs);
        else if (all)
            expire(inputs);
        if (all && fronts_)
            fronts_gone();
        for (Jobs::Played& p : store_.jobs().played()) {
            if (!handed_.count(p.match))
                continue;
            if (!p.unreadable.empty()) {
                log::error("match {}'s result, stored by worker {}, cannot be read: {}", p.match,
                           p.worker, p.unreadable);
                inputs.push_back(over(p.match, "its worker's result could not be read"));
                continue;
            }
            input::Played played = over(p.match, std::move(p.result.why));
            played.complete = p.result.complete;
            played.games = std::move(p.result.games);
            played.stalled_ms = std::move(p.result.stalled_ms);
            inputs.push_back(std::move(played));
        }
        if (failing_)
            log::info("the workers' matches are read from the store again");
        failing_ = false;
    } catch (const std::exception& e) {
        if (!failing_)
            log::warning("the workers' matches cannot be read from the store: {} (tried again)",
                         e.what());
        failing_ = true;
    }
    for (Input& input : inputs)
        feed_(std::move(input));
}

void HandedOut::look_at_workers(std::vector<Input>& inputs) {
    Jobs& jobs = store_.jobs();
    const input::Workers seen = jobs.seen(worker_seen_ms, words_);
    if (!seen_ || seen_->cores != seen.cores || seen_->largest != seen.largest)
        inputs.push_back(seen);
    seen_ = seen;
    // No worker of its word list left: what none has taken is void, not left waiting.
    if (seen.cores == 0)
        for (const int match : jobs.queued())
            if (const auto found = handed_.find(match);
                found != handed_.end() && found->second.empty()) {
                jobs.cancel(match);
                inputs.push_back(over(match, "no worker was left to take it"));
            }
    expire(inputs);
}

void HandedOut::expire(std::vector<Input>& inputs) {
    for (const auto& [match, worker] : store_.jobs().expired())
        if (const auto found = handed_.find(match); found != handed_.end())
            inputs.push_back(
                over(match, fmt::format("its {} {} was cut off (its lease ran out)",
                                        found->second.empty() ? "worker" : "front node", worker)));
}

void HandedOut::end(bool all) {
    if (handed_.empty())
        return;
    std::vector<int> ending;
    try {
        if (all) {
            for (const auto& [match, node] : handed_)
                ending.push_back(match);
        } else {
            for (const int match : store_.jobs().queued())
                if (handed_.count(match))
                    ending.push_back(match);
        }
        for (const int match : ending)
            store_.jobs().cancel(match);
    } catch (const std::exception& e) {
        log::warning("the matches handed out could not be ended in the store: {}", e.what());
    }
    // Ended here whatever the store said: a worker's result for them is refused as they are
    // voided.
    for (const int match : ending) {
        const bool front = !handed_.at(match).empty();
        feed_(over(match, all ? fmt::format("the arena stopped before its {} finished it",
                                            front ? "front node" : "worker")
                              : fmt::format("the arena stopped before {} took it",
                                            front ? "its front node" : "a worker")));
    }
}

}  // namespace bg::arena
