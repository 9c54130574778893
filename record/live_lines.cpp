#include "record/live_lines.hpp"

#include <fmt/format.h>

namespace bg {

std::string live_line(const Decision& decision, const Game& game) {
    return std::visit(
        [&game](const auto& d) -> std::string {
            using D = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<D, decision::Greeted>) {
                return fmt::format("player {} speaks protocol v{}", d.player + 1, d.version);
            } else if constexpr (std::is_same_v<D, decision::HandsDealt>) {
                int dealt = 0;
                for (const auto& hand : d.hands)
                    dealt += hand.empty() ? 0 : 1;
                return fmt::format("hands dealt to {} players ({} tiles each); {} in the bunch",
                                   dealt, game.rules().hand_size, game.bunch_size());
            } else if constexpr (std::is_same_v<D, decision::PeelAccepted>) {
                if (game.over() && game.end() == End::bananas && game.winner() == d.player)
                    return fmt::format("player {} peeled with {} tiles in the bunch: bananas!",
                                       d.player + 1, d.bunch);
                return fmt::format("player {} peeled (#{}); {} tiles in the bunch", d.player + 1,
                                   d.number, d.bunch);
            } else if constexpr (std::is_same_v<D, decision::PeelStale>) {
                return fmt::format(
                    "player {} peeled stale (its grid reflects peel #{}, now #{}; it lacks {}): "
                    "dropped",
                    d.player + 1, d.number, d.current, d.unseen);
            } else if constexpr (std::is_same_v<D, decision::Dumped>) {
                return fmt::format("player {} dumped {} for {}", d.player + 1, d.letter, d.tiles);
            } else if constexpr (std::is_same_v<D, decision::DumpRefused>) {
                return fmt::format("player {} cannot dump {}: {} tiles in the bunch", d.player + 1,
                                   d.letter, d.bunch);
            } else if constexpr (std::is_same_v<D, decision::Disqualified>) {
                return fmt::format("player {} disqualified: {}", d.player + 1, d.reason);
            } else {
                return fmt::format("game over: {}, {}", to_string(d.end),
                                   d.winner ? fmt::format("player {} won", *d.winner + 1)
                                            : std::string("no winner"));
            }
        },
        decision);
}

}  // namespace bg
