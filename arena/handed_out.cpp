#include "arena/handed_out.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cli/log.hpp"

namespace bg::arena {

HandedOut::HandedOut(uv_loop_t* loop, Store& store, std::uint64_t words,
                     std::function<void(Input)> feed, std::function<std::uint64_t()> now)
    : store_(store),
      feed_(std::move(feed)),
      now_(std::move(now)),
      words_(words ? fmt::format("{:016x}", words) : "") {
    if (!words_.empty())
        wake_.emplace(loop, store_.jobs().connection(), Jobs::played_channel,
                      [this] { look(false); });
}

void HandedOut::hand_out(const effect::Play& play, const GameSetup& game, std::uint64_t seed) {
    handed_[play.match] = static_cast<int>(play.seats.size());
    const std::string why = queue(play, game, seed);
    if (why.empty())
        return;
    log::error("match {} cannot be played by the workers: {}", play.match, why);
    feed_(over(play.match, why));
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
            if (seat.bot.command) {
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
        store_.jobs().queue(plan, words_, static_cast<int>(play.seats.size()));
        return "";
    } catch (const std::exception& e) {
        return fmt::format("it could not be queued for the workers: {}", e.what());
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
}

void HandedOut::look(bool all) {
    std::vector<Input> inputs;
    try {
        if (all)
            look_at_workers(inputs);
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
            if (handed_.count(match)) {
                jobs.cancel(match);
                inputs.push_back(over(match, "no worker was left to take it"));
            }
    for (const auto& [match, worker] : jobs.expired())
        if (handed_.count(match))
            inputs.push_back(
                over(match, fmt::format("its worker {} was cut off (its lease ran out)", worker)));
}

void HandedOut::end(bool all) {
    if (handed_.empty())
        return;
    std::vector<int> ending;
    try {
        if (all) {
            for (const auto& [match, players] : handed_)
                ending.push_back(match);
        } else {
            for (const int match : store_.jobs().queued())
                if (handed_.count(match))
                    ending.push_back(match);
        }
        for (const int match : ending)
            store_.jobs().cancel(match);
    } catch (const std::exception& e) {
        log::warning("the workers' matches could not be ended in the store: {}", e.what());
    }
    // Ended here whatever the store said: a worker's result for them is refused as they are
    // voided.
    for (const int match : ending)
        feed_(over(match, all ? "the arena stopped before its worker finished it"
                              : "the arena stopped before a worker took it"));
}

}  // namespace bg::arena
