#include "fuzz/fuzz_game.hpp"

#include <cstdlib>

#include "core/game.hpp"
#include "players/staircase.hpp"
#include "protocol/outbox.hpp"
#include "protocol/player_reader.hpp"

namespace bg::fuzz {

void play_stream(std::string_view bytes, LegacyDialect dialect) {
    std::string error;
    auto game = Game::create(GameConfig{7, 2, 1}, two_letter_words(), &error);
    game->handle(input::Ready{1});
    PlayerReader reader(0);
    const auto handle = [&](const Input& in) {
        for (const auto& d : game->handle(in)) {
            for (const auto& m : messages_for(d, *game, dialect))
                if (m.bytes.empty())
                    std::abort();
        }
        if (game->tiles_in_play() != game->rules().tiles())
            std::abort();  // tiles must be conserved whatever the bytes
    };
    // Cut the stream once, where its length says: framing must not depend on the chunks.
    const std::size_t cut = bytes.empty() ? 0 : bytes.size() / 2;
    std::vector<Input> inputs;
    reader.feed(bytes.substr(0, cut), inputs);
    reader.feed(bytes.substr(cut), inputs);
    reader.finish(inputs);
    for (const auto& in : inputs)
        handle(in);
    // And the other player peels, so that stale and fresh peels from the stream meet a race.
    if (game->dealt() && !game->over())
        handle(input::Peel{1, serialise(staircase_grid(game->players()[1].hand.to_string())), {}});
}

}  // namespace bg::fuzz
