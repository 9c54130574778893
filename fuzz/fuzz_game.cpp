#include "fuzz/fuzz_game.hpp"

#include <cstdlib>

#include "referee/referee.hpp"
#include "tests/support/memory_log.hpp"
#include "tests/support/staircase.hpp"

namespace bg::fuzz {

// The host's own Referee: the reader, the rules, the outbox and the turn order, as shipped.
void play_stream(std::string_view bytes, LegacyDialect dialect) {
    GameSetup setup;
    setup.game = RulesConfig{7, 2, 1};
    setup.commands = {"fuzzed", "staircase"};
    setup.dialect = dialect;
    MemoryLog log;
    Referee referee(setup, two_letter_words(), log);
    const auto check = [&](const Effects& effects) {
        for (const auto& effect : effects)
            if (const auto* send = std::get_if<effect::Send>(&effect); send && send->bytes.empty())
                std::abort();
        if (referee.game().tiles_in_play() != referee.game().rules().tiles())
            std::abort();  // tiles must be conserved whatever the bytes
    };
    check(referee.start(0));
    // Cut the stream once, where its length says: framing must not depend on the chunks. Both
    // halves and the other player's ready arrive in one turn, in an order drawn from the seed.
    const std::size_t cut = bytes.empty() ? 0 : bytes.size() / 2;
    std::vector<Arrival> turn;
    turn.push_back(arrival::Output{0, std::string(bytes.substr(0, cut))});
    turn.push_back(arrival::Output{1, "r"});
    turn.push_back(arrival::Output{0, std::string(bytes.substr(cut))});
    check(referee.take(std::move(turn), 1));
    check(referee.take(arrival::OutputEnd{0}, 2));
    // And the other player peels, so that stale and fresh peels from the stream meet a race.
    const Game& game = referee.game();
    if (game.dealt() && !game.over())
        check(referee.take(
            arrival::Output{1, "p" + serialise(staircase_grid(game.players()[1].hand.to_string()))},
            3));
    // A stall clock's firing, whether or not the clock runs.
    check(referee.take(arrival::TimerFired{{GameTimer::Kind::stall, 0}}, 4));
    check(referee.take(arrival::TimerFired{{GameTimer::Kind::exit_wait, 0}}, 4));
    // The host calls finish() once the players are gone: then the usage and result are logged.
    referee.finish({PlayerUsage{1, 2, {}}, PlayerUsage{}}, 5);
    if (log.decisions.empty() || (referee.over() && (!log.result_record || log.usages.size() != 2)))
        std::abort();  // a game over has its result recorded
}

}  // namespace bg::fuzz
