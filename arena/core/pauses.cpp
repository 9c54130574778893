#include "arena/core/pauses.hpp"

#include <fmt/format.h>

namespace bg::arena {

using Step = Deciding::Step;

void Pauses::tick() {
    // Pauses that could not be stored: tried again, so that none is lost to a full disk.
    for (const auto& [bot, why] : std::exchange(unpaused_, {}))
        d_.later(Step::pause, [this, bot = bot, why = why] { pause(bot, why); });
}

void Pauses::counted(const MatchResult& result) {
    for (const auto& [bot, why] : to_pause(result, d_.roster, faults_, d_.settings.faults_to_pause))
        d_.later(Step::pause, [this, bot = bot, why = why] { pause(bot, why); });
}

void Pauses::pause(int bot, const std::string& why) {
    d_.write(effect::Pause{bot, why}, [this, bot, why](const input::Written* written,
                                                       const std::string& failure) {
        if (!written) {
            d_.note(fmt::format("bot {} could not be paused: {} (tried again at the next turn)",
                                d_.name_of(bot), escape_for_terminal(failure)),
                    effect::Note::error);
            unpaused_.push_back({bot, why});
            return;
        }
        const Bot* stored = d_.roster.account(bot);
        if (!stored)
            return;
        Bot paused = *stored;
        paused.paused = why;
        paused.paused_at = written->at;
        d_.roster.put(paused);
        lounge_.turn_away_unplayable();
        d_.note(fmt::format("bot {} paused: {} ('arena bot enable {}' lets it play again)",
                            paused.name, why, paused.name),
                effect::Note::warning);
    });
}

}  // namespace bg::arena
