#include "arena/core/deciding.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg::arena {

void Doings::add(int bot, What what, int by) {
    Counts& counts = counts_[bot];
    const char* before = status_of(counts);
    counts.of[what] += by;
    if (status_of(counts) != before)
        changed_ = true;
    if (counts.of[queued] <= 0 && counts.of[checking] <= 0 && counts.of[playing] <= 0)
        counts_.erase(bot);
}

const char* Doings::status_of(const Counts& c) {
    return c.of[playing] > 0    ? "playing"
           : c.of[checking] > 0 ? "checking"
           : c.of[queued] > 0   ? "queued"
                                : "";
}

std::map<int, std::string> Doings::statuses() const {
    std::map<int, std::string> all;
    for (const auto& [bot, counts] : counts_)
        if (const std::string status = status_of(counts); !status.empty())
            all[bot] = status;
    return all;
}

void Deciding::note(std::string text, effect::Note::Level level) {
    effects.push_back(effect::Note{level, std::move(text)});
}

std::string Deciding::name_of(int bot) const {
    const Bot* account = roster.account(bot);
    return account ? account->name : fmt::format("#{}", bot);
}

void Deciding::write(Effect effect, Then then) {
    effects.push_back(std::move(effect));
    then_ = std::move(then);
}

void Deciding::outcome(const input::Written* written, const std::string& why) {
    const Then then = std::move(*then_);
    then_.reset();
    if (written && store_failing_)
        note("the database can be written again");
    else if (!written && !store_failing_)
        note(fmt::format("the database cannot be written: {} (no match begins until it can)",
                         escape_for_terminal(why)),
             effect::Note::error);
    store_failing_ = !written;
    then(written, why);
}

void Deciding::later(Step kind, std::function<void()> work, bool first) {
    if (first)
        todo_.emplace_front(kind, std::move(work));
    else
        todo_.emplace_back(kind, std::move(work));
}

void Deciding::drop(Step kind) {
    std::erase_if(todo_, [kind](const auto& step) { return step.first == kind; });
}

void Deciding::run() {
    while (!then_ && !todo_.empty()) {
        const auto work = std::move(todo_.front().second);
        todo_.pop_front();
        work();
    }
}

}  // namespace bg::arena
