#include "core/game.hpp"

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "core/judge.hpp"
#include "tests/support/staircase.hpp"

using namespace bg;

namespace {

Game new_game(int players, std::uint64_t seed = 42) {
    std::string error;
    auto game = Game::create(RulesConfig{seed, players, 1}, two_letter_words(), &error);
    REQUIRE(game);
    return std::move(*game);
}

Game dealt_game(int players, std::uint64_t seed = 42) {
    Game game = new_game(players, seed);
    for (int p = 0; p < players; ++p)
        game.handle(input::Ready{p});
    REQUIRE(game.dealt());
    return game;
}

std::string staircase_of(const LetterCounts& hand) {
    return serialise(staircase_grid(hand.to_string()));
}

input::Peel fresh_peel(const Game& game, PlayerId p) {
    return input::Peel{p, staircase_of(game.players()[p].hand), {}};
}

template <class D>
const D& only(const std::vector<Decision>& decisions, std::size_t at = 0) {
    REQUIRE(decisions.size() > at);
    const D* d = std::get_if<D>(&decisions[at]);
    REQUIRE(d != nullptr);
    return *d;
}

void check_conserved(const Game& game) {
    CHECK(game.tiles_in_play() == game.rules().tiles());
}

}  // namespace

TEST_CASE("game: hands go out once every player is ready, the same for the same seed", "[game]") {
    Game game = new_game(3);
    CHECK(game.handle(input::Ready{0}).empty());
    CHECK(game.handle(input::Ready{2}).empty());
    const auto decisions = game.handle(input::Ready{1});
    const auto& dealt = only<decision::HandsDealt>(decisions);
    REQUIRE(dealt.hands.size() == 3);
    for (int p = 0; p < 3; ++p) {
        CHECK(dealt.hands[p].size() == 21);
        CHECK(dealt.hands[p] == game.players()[p].hand.to_string());
    }
    CHECK(game.bunch_size() == 144 - 63);
    check_conserved(game);

    CHECK(dealt_game(3).players()[1].hand == game.players()[1].hand);
    CHECK(dealt_game(3, 43).players()[1].hand != game.players()[1].hand);
}

TEST_CASE("game: a golden deal pins the shuffle", "[game]") {
    // Computed by an independent Python transcription of docs/host.md's shuffle: any change to the
    // shuffle, the tile set or the dealing order changes this deal.
    const Game game = dealt_game(2, 1);
    CHECK(game.players()[0].hand.to_string() == "ADEIIIILLNNNORRRSTXYZ");
    CHECK(game.players()[1].hand.to_string() == "AABEEFGIIJKLLNOOSTVVY");
}

TEST_CASE("game: protocol order is enforced", "[game]") {
    Game game = new_game(3);
    game.handle(input::Ready{0});
    auto ready_twice = game.handle(input::Ready{0});
    CHECK(only<decision::Disqualified>(ready_twice).reason ==
          "protocol error: sent r (ready) a second time");
    auto early = game.handle(input::Peel{1, "001001A", {}});
    CHECK(only<decision::Disqualified>(early).reason ==
          "protocol error: sent p (peel) before its hand was dealt (and before r)");
    // Two of three are out, but the last one has not said r: it has not won yet.
    CHECK(early.size() == 1);
    CHECK_FALSE(game.over());
    CHECK(only<decision::GameOver>(game.handle(input::Ready{2})) ==
          decision::GameOver{End::last_player_standing, 2});
}

TEST_CASE("game: nobody ready at the ready timeout: nobody wins, whatever the seat", "[game]") {
    Game game = new_game(3);
    const auto d = game.handle(input::ReadyTimeout{});
    REQUIRE(d.size() == 4);
    for (int p = 0; p < 3; ++p)
        CHECK(std::get<decision::Disqualified>(d[static_cast<std::size_t>(p)]).player == p);
    CHECK(only<decision::GameOver>(d, 3) == decision::GameOver{End::everyone_out, std::nullopt});

    // The others gone before it said r, the last seat still waits for its own r.
    Game left = new_game(2);
    left.handle(input::Gone{0, OutCode::exited, "exited with status 1"});
    CHECK_FALSE(left.over());
    const auto timeout = left.handle(input::ReadyTimeout{});
    CHECK(only<decision::GameOver>(timeout, 1) ==
          decision::GameOver{End::everyone_out, std::nullopt});
}

TEST_CASE("game: a player past its message or grid limits is out for flooding", "[game]") {
    Game game = dealt_game(2);
    for (int i = 2; i <= max_messages_per_player; ++i)  // r was the first
        REQUIRE(game.handle(input::Dump{0, game.players()[0].hand.to_string()[0]}).size() == 1);
    const auto flood = game.handle(input::Dump{0, game.players()[0].hand.to_string()[0]});
    CHECK(only<decision::Disqualified>(flood).reason ==
          "flooded the host: more than 10000 messages (the limit for a game)");
    CHECK(only<decision::GameOver>(flood, 1) == decision::GameOver{End::last_player_standing, 1});

    // A legal stale peel, dropped each time, but a megabyte of grid each time.
    Game grids = dealt_game(2);
    const std::string small = staircase_of(grids.players()[0].hand);
    const int width = std::stoi(small.substr(0, 3)), height = std::stoi(small.substr(3, 3));
    std::string big = "999999" + std::string(999 * 999, '.');
    for (int row = 0; row < height; ++row)
        big.replace(6 + static_cast<std::size_t>(row) * 999, static_cast<std::size_t>(width),
                    small.substr(6 + static_cast<std::size_t>(row * width),
                                 static_cast<std::size_t>(width)));
    REQUIRE(grids.handle(fresh_peel(grids, 1)).size() == 1);
    std::size_t sent = 0;
    for (sent = big.size(); sent <= max_grid_bytes_per_player; sent += big.size())
        REQUIRE(only<decision::PeelStale>(grids.handle(input::Peel{0, big, {}})).player == 0);
    CHECK(only<decision::Disqualified>(grids.handle(input::Peel{0, big, {}})).reason ==
          "flooded the host: more than 64 MiB of peel grids (the limit for a game)");
}

TEST_CASE("game: a valid peel deals one tile to every player", "[game]") {
    Game game = dealt_game(3);
    const auto before1 = game.players()[1].hand.total();
    const auto decisions = game.handle(fresh_peel(game, 0));
    const auto& peel = only<decision::PeelAccepted>(decisions);
    CHECK(peel.number == 1);
    CHECK(peel.tiles.size() == 3);
    CHECK(peel.bunch == 144 - 63 - 3);
    CHECK(game.players()[1].hand.total() == before1 + 1);
    CHECK(game.players()[1].hand.count(peel.tiles[1]) >= 1);
    CHECK(game.players()[0].peels == 1);
    CHECK(game.players()[0].grid.has_value());
    check_conserved(game);
    CHECK(only<decision::PeelAccepted>(game.handle(fresh_peel(game, 2))).number == 2);
}

TEST_CASE("game: a peel that raced the newest tiles is stale, never punished", "[game]") {
    Game game = dealt_game(2);
    const LetterCounts old_hand = game.players()[1].hand;
    const auto first = only<decision::PeelAccepted>(game.handle(fresh_peel(game, 0)));

    // Player 1 peels the hand it had before peel 1's tile reached it.
    auto decisions = game.handle(input::Peel{1, staircase_of(old_hand), {}});
    const auto& stale = only<decision::PeelStale>(decisions);
    CHECK(stale.unseen == std::string(1, first.tiles[1]));
    CHECK(stale.number == 0);
    CHECK(stale.current == 1);
    CHECK(game.players()[1].phase == PlayerState::Phase::playing);
    CHECK(game.players()[1].peels == 0);

    // Another peel lands while it catches up: a grid holding the first tile but not the second
    // is stale too, though the player has been heard from since the first was dealt.
    const LetterCounts caught_up = game.players()[1].hand;
    const auto second = only<decision::PeelAccepted>(game.handle(fresh_peel(game, 0)));
    decisions = game.handle(input::Peel{1, staircase_of(caught_up), {}});
    CHECK(only<decision::PeelStale>(decisions).unseen == std::string(1, second.tiles[1]));
    CHECK(only<decision::PeelStale>(decisions).number == 1);

    // Fresh at last: accepted.
    CHECK(only<decision::PeelAccepted>(game.handle(fresh_peel(game, 1))).number == 3);
    check_conserved(game);
}

TEST_CASE("game: a stale grid is judged against the hand it reflects", "[game]") {
    Game game = dealt_game(2);
    const std::string old_letters = game.players()[1].hand.to_string();
    game.handle(fresh_peel(game, 0));
    // The hand it had, but in one row: a 21-letter run is no two-letter word. Racing a peel is
    // no excuse for an illegal grid.
    const auto d = game.handle(input::Peel{1, fmt::format("021001{}", old_letters), {}});
    CHECK(only<decision::Disqualified>(d).reason ==
          fmt::format("illegal peel: not in the word list: {} (across from column 0, row 0) "
                      "(judged against its hand as of peel 0000)",
                      old_letters));
}

TEST_CASE("game: a peel that raced a dump's tiles is stale, never punished", "[game]") {
    // Seed 276's race, in either protocol: the player dumps, then peels a grid holding neither
    // the three tiles of the dump nor the tiles peels dealt after them. It had not read them.
    for (const bool v2 : {false, true}) {
        INFO((v2 ? "v2" : "legacy"));
        Game game = new_game(2);
        if (v2)
            game.handle(input::Hello{1, 2});
        game.handle(input::Ready{0});
        game.handle(input::Ready{1});
        game.handle(fresh_peel(game, 0));  // peel 1, before the dump: its tile will be read
        const char letter = game.players()[1].hand.to_string()[0];
        const auto dumped = only<decision::Dumped>(game.handle(input::Dump{1, letter}));
        LetterCounts before_answer = game.players()[1].hand;
        for (char tile : dumped.tiles)
            before_answer.remove(tile);
        const auto second = only<decision::PeelAccepted>(game.handle(fresh_peel(game, 0)));
        const auto third = only<decision::PeelAccepted>(game.handle(fresh_peel(game, 0)));
        const std::optional<int> says = v2 ? std::optional<int>(1) : std::nullopt;

        const auto d = game.handle(input::Peel{1, staircase_of(before_answer), says});
        const auto& stale = only<decision::PeelStale>(d);
        CHECK(stale.unseen == dumped.tiles + second.tiles[1] + third.tiles[1]);
        CHECK(stale.number == 1);  // the dump came after peel 1
        CHECK(stale.current == 3);
        // Having read the dump's tiles but not peel 3's: stale, lacking only that tile.
        LetterCounts read_dump = before_answer;
        read_dump += *LetterCounts::from_letters(dumped.tiles);
        read_dump.add(second.tiles[1]);
        const auto d2 = game.handle(
            input::Peel{1, staircase_of(read_dump), v2 ? std::optional<int>(2) : std::nullopt});
        CHECK(only<decision::PeelStale>(d2).unseen == std::string(1, third.tiles[1]));
        CHECK(only<decision::PeelStale>(d2).number == 2);
        // A grid that kept the dumped tile is no race: the player knew it had put it back.
        LetterCounts kept = before_answer;
        kept.add(letter);
        CHECK(only<decision::Disqualified>(
                  game.handle(input::Peel{1, staircase_of(kept),
                                          v2 ? std::optional<int>(2) : std::nullopt}))
                  .reason.rfind("illegal peel: grid tiles are not the hand", 0) == 0);
        check_conserved(game);
    }
}

TEST_CASE("game: a v2 peel may lack a dump's tiles only after the peel it names", "[game][v2]") {
    Game game = new_game(2);
    game.handle(input::Hello{1, 2});
    game.handle(input::Ready{0});
    game.handle(input::Ready{1});
    const char letter = game.players()[1].hand.to_string()[0];
    const auto dumped = only<decision::Dumped>(game.handle(input::Dump{1, letter}));
    LetterCounts before_answer = game.players()[1].hand;
    for (char tile : dumped.tiles)
        before_answer.remove(tile);
    game.handle(fresh_peel(game, 0));  // peel 1, after the dump's answer
    LetterCounts without_answer = before_answer;
    without_answer.add(game.players()[1].unread.back().tile);
    // It says it has read peel 1's tile, which came after the dump's: it has read the dump's too.
    CHECK(only<decision::Disqualified>(game.handle(input::Peel{1, staircase_of(without_answer), 1}))
              .reason.rfind("illegal peel: grid tiles are not the hand", 0) == 0);
}

TEST_CASE("game: illegal peels disqualify, with the reason, and return the tiles", "[game]") {
    SECTION("malformed grid") {
        Game game = dealt_game(3);
        const auto d = game.handle(input::Peel{0, "003005..AHERA.TT.YE.", {}});
        CHECK(only<decision::Disqualified>(d).reason ==
              "illegal peel: grid of width 3 and height 5 needs 15 cells, got 14");
        CHECK(game.players()[0].hand.empty());
        CHECK(game.bunch_size() == 144 - 42);
        check_conserved(game);
    }
    SECTION("tiles that are not the hand, and not a race") {
        Game game = dealt_game(3);
        LetterCounts hand = game.players()[0].hand;
        hand.add('Q');
        const auto d = game.handle(input::Peel{0, staircase_of(hand), {}});
        CHECK(only<decision::Disqualified>(d).reason ==
              "illegal peel: grid tiles are not the hand; not in the hand: Q (1)");
    }
    SECTION("tiles not joined") {
        Game game = dealt_game(3);
        std::string letters = game.players()[0].hand.to_string();
        std::string grid = serialise(staircase_grid(letters.substr(0, 20)));
        // Widen the staircase by a column holding the last tile, apart from the others.
        auto g = staircase_grid(letters.substr(0, 20));
        Grid wide{g.width + 2, g.height, {}};
        for (int y = 0; y < g.height; ++y)
            wide.cells += g.cells.substr(static_cast<std::size_t>(y) * g.width, g.width) +
                          (y == 0 ? std::string{'.', letters[20]} : std::string(".."));
        const auto d = game.handle(input::Peel{0, serialise(wide), {}});
        CHECK(only<decision::Disqualified>(d).reason.rfind("illegal peel: grid is not connected",
                                                           0) == 0);
    }
}

TEST_CASE("game: dumps swap one tile for three, or are refused when the bunch is short", "[game]") {
    Game game = dealt_game(2);
    const char letter = game.players()[0].hand.to_string()[0];
    const auto d = game.handle(input::Dump{0, letter});
    const auto& dumped = only<decision::Dumped>(d);
    CHECK(dumped.letter == letter);
    CHECK(dumped.tiles.size() == 3);
    CHECK(game.players()[0].hand.total() == 23);
    CHECK(game.players()[0].dumps == 1);
    CHECK(game.bunch_size() == 144 - 42 - 2);
    check_conserved(game);

    LetterCounts hand = game.players()[1].hand;
    char absent = 'A';
    while (hand.count(absent) > 0)
        ++absent;
    CHECK(only<decision::Disqualified>(game.handle(input::Dump{1, absent})).reason ==
          fmt::format("illegal dump: {} is not in its hand", absent));
}

TEST_CASE("game: the bunch running short ends the game in bananas", "[game]") {
    Game game = dealt_game(2);
    // Drain the bunch to two tiles with peels, then dump: refused.
    while (game.bunch_size() >= 4)
        game.handle(fresh_peel(game, game.peel_number() % 2));
    CHECK(game.bunch_size() == 2);
    const char letter = game.players()[0].hand.to_string()[0];
    CHECK(only<decision::DumpRefused>(game.handle(input::Dump{0, letter})) ==
          decision::DumpRefused{0, letter, 2});
    // A grid sent before the refusal was read lacks the tile that came back: stale, not out.
    LetterCounts without = game.players()[0].hand;
    without.remove(letter);
    CHECK(
        only<decision::PeelStale>(game.handle(input::Peel{0, staircase_of(without), {}})).unseen ==
        std::string(1, letter));
    // Two tiles for two players: one more round of tiles.
    CHECK(only<decision::PeelAccepted>(game.handle(fresh_peel(game, 1))).bunch == 0);
    check_conserved(game);
    // Fewer tiles than players: the next valid peel is bananas.
    const auto last = game.handle(fresh_peel(game, 0));
    CHECK(only<decision::PeelAccepted>(last).tiles == "..");
    CHECK(only<decision::GameOver>(last, 1) == decision::GameOver{End::bananas, 0});
    CHECK(game.winner() == 0);
    CHECK(game.handle(fresh_peel(game, 1)).empty());  // nothing happens after the end
}

TEST_CASE("game: players leaving end the game when one or none is left", "[game]") {
    Game game = dealt_game(3);
    CHECK(only<decision::Disqualified>(
              game.handle(input::Gone{0, OutCode::exited, "exited with status 1"}))
              .reason == "exited with status 1");
    CHECK_FALSE(game.over());
    check_conserved(game);
    const auto d = game.handle(input::Violation{1, "bad byte"});
    CHECK(only<decision::Disqualified>(d).reason == "protocol error: bad byte");
    CHECK(only<decision::GameOver>(d, 1) == decision::GameOver{End::last_player_standing, 2});

    Game solo = dealt_game(1);
    const auto gone =
        solo.handle(input::Gone{0, OutCode::closed_output, "closed its output (stdout)"});
    CHECK(only<decision::GameOver>(gone, 1) == decision::GameOver{End::everyone_out, std::nullopt});
}

TEST_CASE("game: a ready timeout disqualifies the players not ready and deals the rest", "[game]") {
    Game game = new_game(3);
    game.handle(input::Ready{0});
    game.handle(input::Ready{1});
    const auto d = game.handle(input::ReadyTimeout{});
    CHECK(only<decision::Disqualified>(d).reason ==
          "not ready (no r, nor v002R in v2) before the ready timeout");
    const auto& dealt = only<decision::HandsDealt>(d, 1);
    CHECK(dealt.hands[2].empty());
    CHECK(dealt.hands[0].size() == 21);
    CHECK(game.handle(input::ReadyTimeout{}).empty());
}

TEST_CASE("game: at the game timeout the fewest tiles win, and a tie has no winner", "[game]") {
    Game game = dealt_game(2);
    game.handle(input::Dump{0, game.players()[0].hand.to_string()[0]});
    CHECK(only<decision::GameOver>(game.handle(input::GameTimeout{})) ==
          decision::GameOver{End::game_timeout, 1});

    Game tied = dealt_game(2);
    CHECK(only<decision::GameOver>(tied.handle(input::GameTimeout{})) ==
          decision::GameOver{End::game_timeout, std::nullopt});
}

TEST_CASE("game: a stall ends a game whose bunch cannot serve a dump, by fewest tiles", "[game]") {
    Game game = dealt_game(2);
    // Before the deal, or while a dump can be served, a stall changes nothing.
    Game undealt = new_game(2);
    CHECK(undealt.handle(input::StallTimeout{}).empty());
    CHECK_FALSE(undealt.over());
    game.handle(input::Dump{0, game.players()[0].hand.to_string()[0]});
    CHECK(game.handle(input::StallTimeout{}).empty());
    CHECK_FALSE(game.over());
    while (game.bunch_size() >= 3)
        game.handle(fresh_peel(game, 1));
    REQUIRE_FALSE(game.over());
    CHECK_FALSE(game.bunch_serves_dumps());
    // Player 0 dumped: it holds two tiles more.
    CHECK(only<decision::GameOver>(game.handle(input::StallTimeout{})) ==
          decision::GameOver{End::stalled, 1});
    CHECK(game.standings() == std::vector<int>{2, 1});

    Game tied = dealt_game(2);
    while (tied.bunch_size() >= 3)
        tied.handle(fresh_peel(tied, 0));
    CHECK(only<decision::GameOver>(tied.handle(input::StallTimeout{})) ==
          decision::GameOver{End::stalled, std::nullopt});
    CHECK(end_from_string(to_string(End::stalled)) == End::stalled);
}

TEST_CASE("game: an abort ends the game with no winner", "[game]") {
    Game game = dealt_game(2);
    CHECK(only<decision::GameOver>(game.handle(input::Abort{"SIGINT"})) ==
          decision::GameOver{End::aborted, std::nullopt});
}

TEST_CASE("game: player and set counts out of range are refused", "[game]") {
    std::string error;
    CHECK_FALSE(Game::create(RulesConfig{1, 0, 1}, two_letter_words(), &error));
    CHECK(error == "0 players: a game has 1 to 64");
}

TEST_CASE("game: v2 players say hello, and their peels say what they reflect", "[game][v2]") {
    Game game = new_game(2);
    CHECK(only<decision::Greeted>(game.handle(input::Hello{0, 2})) == decision::Greeted{0, 2});
    // A later version than the host knows is answered in v003, the newest that plays one game
    // a process (it may know v002 alone: v003 is v002 with more in V).
    CHECK(only<decision::Greeted>(game.handle(input::Hello{1, 9})).version == protocol_v3);
    game.handle(input::Ready{0});
    game.handle(input::Ready{1});
    const LetterCounts old_hand = game.players()[1].hand;
    game.handle(fresh_peel(game, 0));  // peel 1

    // Stale, and said so: the grid reflects peel 0.
    auto d = game.handle(input::Peel{1, staircase_of(old_hand), 0});
    CHECK(only<decision::PeelStale>(d).number == 0);
    CHECK(only<decision::PeelStale>(d).current == 1);
    // A NAK proves nothing (it may be unread): the same stale peel is stale again.
    CHECK(
        only<decision::PeelStale>(game.handle(input::Peel{1, staircase_of(old_hand), 0})).number ==
        0);
    // Its own peel saying it has seen peel 1 does: it may not go back to 0 after it.
    CHECK(only<decision::PeelAccepted>(
              game.handle(input::Peel{1, staircase_of(game.players()[1].hand), 1}))
              .number == 2);
    d = game.handle(input::Peel{1, staircase_of(old_hand), 0});
    CHECK(only<decision::Disqualified>(d).reason ==
          "protocol error: its peel says it reflects peel 0000, older than peel 0001, which its "
          "earlier peels showed it had seen");
}

TEST_CASE("game: a v2 peel from the future, or wrong about its hand, is out", "[game][v2]") {
    Game game = new_game(3);
    for (int p = 0; p < 3; ++p)
        game.handle(input::Hello{p, 2});
    for (int p = 0; p < 3; ++p)
        game.handle(input::Ready{p});
    const LetterCounts old_hand = game.players()[2].hand;
    CHECK(only<decision::PeelAccepted>(
              game.handle(input::Peel{0, staircase_of(game.players()[0].hand), 0}))
              .number == 1);
    auto d = game.handle(input::Peel{1, staircase_of(game.players()[1].hand), 5});
    CHECK(only<decision::Disqualified>(d).reason ==
          "protocol error: its peel says it reflects peel 0005, which is from the future (the "
          "newest is 0001)");
    // It says it has seen peel 1, yet its grid lacks peel 1's tile.
    d = game.handle(input::Peel{2, staircase_of(old_hand), 1});
    CHECK(only<decision::Disqualified>(d).reason.rfind("illegal peel: grid tiles are not the hand",
                                                       0) == 0);
}

TEST_CASE("game: a v2 grid holding every tile is fresh, whatever number it names", "[game][v2]") {
    Game game = new_game(2);
    game.handle(input::Hello{1, 2});
    game.handle(input::Ready{0});
    game.handle(input::Ready{1});
    game.handle(fresh_peel(game, 0));
    CHECK(only<decision::PeelAccepted>(
              game.handle(input::Peel{1, staircase_of(game.players()[1].hand), 0}))
              .number == 2);
}

TEST_CASE("game: a v2 handshake for a version before 2 is refused in v2", "[game][v2]") {
    for (const int version : {0, 1}) {
        Game g = new_game(2);
        const auto d = g.handle(input::Hello{0, version});
        CHECK(only<decision::Disqualified>(d).reason ==
              fmt::format("protocol error: handshake v{:03} asks for a version before 2 (legacy "
                          "players start with r instead)",
                          version));
        // It spoke v2: it is told so in v2 (an E), and the result says v2.
        CHECK(g.players()[0].version == protocol_v2);
    }
}

TEST_CASE("game: reasons name messages as the player's protocol spells them", "[game][v2]") {
    Game game = new_game(4);
    game.handle(input::Hello{0, 2});
    game.handle(input::Ready{0});
    CHECK(only<decision::Disqualified>(game.handle(input::Ready{0})).reason ==
          "protocol error: sent R (ready) a second time");
    game.handle(input::Hello{1, 2});
    CHECK(only<decision::Disqualified>(game.handle(input::Dump{1, 'A'})).reason ==
          "protocol error: sent D (dump) before its hand was dealt (and before R)");
    game.handle(input::Hello{2, 2});
    const auto timeout = game.handle(input::ReadyTimeout{});
    CHECK(only<decision::Disqualified>(timeout, 0).reason ==
          "not ready (no R after its handshake) before the ready timeout");
    CHECK(only<decision::Disqualified>(timeout, 1).reason ==
          "not ready (no r, nor v002R in v2) before the ready timeout");
}

TEST_CASE("game: a handshake after the first message is a protocol error", "[game][v2]") {
    Game game = new_game(2);
    game.handle(input::Ready{0});
    CHECK(only<decision::Disqualified>(game.handle(input::Hello{0, 2})).reason ==
          "protocol error: a v2 handshake after its first message");
}

TEST_CASE("game: v004 is answered only to a bot that asks for it", "[game][v004]") {
    CHECK(answered_version(2, protocol_newest) == protocol_v2);
    CHECK(answered_version(3, protocol_newest) == protocol_v3);
    CHECK(answered_version(4, protocol_newest) == protocol_v4);
    CHECK(answered_version(5, protocol_newest) == protocol_v3);
    CHECK(answered_version(99, protocol_newest) == protocol_v3);
    // A log's older host answered what it knew.
    CHECK(answered_version(4, protocol_v3) == protocol_v3);
    CHECK(answered_version(9, protocol_v2) == protocol_v2);
    Game game = new_game(2);
    CHECK(only<decision::Greeted>(game.handle(input::Hello{0, 4})).version == protocol_v4);
}

namespace {

// A game whose player 2 continues in its process's game `process_game`, in v004.
Game game_with_continuing(int process_game) {
    RulesConfig config{42, 2, 1};
    config.continuing = {std::nullopt, Continuing{protocol_v4, process_game}};
    std::string error;
    auto game = Game::create(config, two_letter_words(), &error);
    INFO(error);
    REQUIRE(game);
    return std::move(*game);
}

}  // namespace

TEST_CASE("game: a continuing v004 player needs no handshake, and its leftover moves are ignored",
          "[game][v004]") {
    Game game = game_with_continuing(3);
    CHECK(game.players()[1].version == protocol_v4);
    CHECK(game.players()[1].process_game == 3);
    CHECK(game.players()[0].process_game == 1);
    // A peel or dump its game before may have sent after E: nothing, and no penalty.
    CHECK(game.handle(input::Peel{1, "2\n2\nAB", 7}).empty());
    CHECK(game.handle(input::Dump{1, 'A'}).empty());
    CHECK(game.players()[1].phase == PlayerState::Phase::joining);
    // A fresh player's early move is still out.
    game.handle(input::Ready{1});
    CHECK(game.handle(input::Ready{0}).size() == 1);  // the deal
    REQUIRE(game.dealt());
    CHECK(game.players()[1].phase == PlayerState::Phase::playing);
}

TEST_CASE("game: a continuing player's second handshake is a protocol error", "[game][v004]") {
    Game game = game_with_continuing(2);
    CHECK(only<decision::Disqualified>(game.handle(input::Hello{1, 4})).reason ==
          "protocol error: a second handshake (its process said v004 in its first game)");
    Game late = game_with_continuing(2);
    late.handle(input::ReadyTimeout{});
    CHECK(late.players()[1].reason ==
          "not ready (no R after G, the next game's start) before the ready timeout");
    // A fresh one's move before its R is out as ever.
    Game fresh = game_with_continuing(2);
    CHECK(only<decision::Disqualified>(fresh.handle(input::Dump{0, 'A'})).player == 0);
}

TEST_CASE("game: only a v004 player may continue, in its second game or later", "[game][v004]") {
    std::string error;
    RulesConfig config{42, 2, 1};
    config.continuing = {Continuing{protocol_v3, 2}};
    CHECK_FALSE(Game::create(config, two_letter_words(), &error));
    CHECK(error == "a player cannot continue in v003 as its process's game 2");
    config.continuing = {Continuing{protocol_v4, 1}};
    CHECK_FALSE(Game::create(config, two_letter_words(), &error));
    config.continuing = {Continuing{protocol_v4, 2}, std::nullopt, std::nullopt};
    CHECK_FALSE(Game::create(config, two_letter_words(), &error));
    CHECK(error == "more continuing players than players");
    config.newest_protocol = protocol_v3;
    config.continuing = {Continuing{protocol_v4, 2}};
    CHECK_FALSE(Game::create(config, two_letter_words(), &error));
}

TEST_CASE("game: standings put the winner first, then the fewest tiles", "[game]") {
    Game game = dealt_game(3);
    game.handle(input::Dump{0, game.players()[0].hand.to_string()[0]});
    game.handle(input::GameTimeout{});
    CHECK(game.standings() == std::vector<int>{3, 1, 1});
    Game out = dealt_game(3);
    out.handle(input::Gone{2, OutCode::left, "gone"});
    out.handle(input::GameTimeout{});
    CHECK(out.standings() == std::vector<int>{1, 1, 0});

    // Ties share a standing and the next is skipped, as in sport: 1, 2, 2, 4.
    Game four = dealt_game(4);
    four.handle(input::Dump{1, four.players()[1].hand.to_string()[0]});
    four.handle(input::Dump{2, four.players()[2].hand.to_string()[0]});
    four.handle(input::Dump{3, four.players()[3].hand.to_string()[0]});
    four.handle(input::Dump{3, four.players()[3].hand.to_string()[0]});
    four.handle(input::GameTimeout{});
    CHECK(four.winner() == 0);
    CHECK(four.standings() == std::vector<int>{1, 2, 2, 4});
}
