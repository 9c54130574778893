// The arena's API as its pages read it (arena/api.hpp, arena/web.hpp): a bot's matches with
// everyone at the table, its place in every rotation (the seats turned as a match turns them),
// its out-reasons counted and its figures a game averaged over its own seats only; a match's
// games with each seat's entrant; statuses and the last match on the leaderboard; when a bot
// was paused; the pages' paths; a game's log served only once its match is over; and the
// lobby's count of wrong tokens by address.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "arena/api.hpp"
#include "arena/lobby.hpp"
#include "arena/store.hpp"
#include "arena/web.hpp"
#include "tests/support/scratch_arena.hpp"

using namespace bg;
using namespace bg::arena;
using bg::test::ScratchArena;

namespace {

PlayerResult player(int rank, std::optional<OutCode> out, double cpu_ms,
                    std::optional<PeelCounts> counts) {
    PlayerResult p;
    p.rank = rank;
    p.outcome = rank == 1 ? Outcome::won : out ? Outcome::disqualified : Outcome::lost;
    p.out_code = out;
    if (out)
        p.reason = "said so";
    p.cpu_ms = cpu_ms;
    p.counts = counts;
    return p;
}

}  // namespace

TEST_CASE(
    "arena: the API gives a bot's page every match's table, its places by rotation and its "
    "own figures, and a match's page each seat's entrant",
    "[arena][api]") {
    ScratchArena arena("api");
    auto& store = arena.store;
    const std::string log =
        (std::filesystem::temp_directory_path() / fmt::format("bg-api-{}.log", ::getpid()))
            .string();
    store->add_bot("a", "ann", std::nullopt, std::nullopt);
    store->add_bot("h", "", std::string("true"), std::nullopt);
    const Entry a = store->entry(*store->bot("a"), "v1");
    store->record_check(a.id, true, "");  // let play: on the leaderboard
    const Entry h = store->entry(*store->bot("h"), "true");
    const int id = store->begin_match(5).id;
    // Not over: neither its games nor their logs are shown.
    {
        std::ofstream(log) << R"({"seq":0,"start":{"seed":5}})"
                           << "\n";
    }
    CHECK(!game_records_json(*store, id, 0));
    CHECK(!arena_page(*store, fmt::format("/matches/{}/games/0", id), ""));
    // Rotation 0: a in seat 0 wins, h is out; rotation 1 (seats turned): h in seat 0 wins, a in
    // seat 1 is out for exiting. a's counts and CPU in both; h's CPU only.
    GameResult first, second;
    first.end = second.end = End::bananas;
    first.winner = second.winner = 0;
    first.players = {player(1, std::nullopt, 10, PeelCounts{0, 2, 100}),
                     player(0, OutCode::illegal_peel, 30, std::nullopt)};
    second.players = {player(1, std::nullopt, 50, std::nullopt),
                      player(0, OutCode::exited, 20, PeelCounts{1, 1, 300})};
    const stats::Belief before = store->model().initial();
    const stats::Belief up{before.mu + 2, before.sigma - 1}, down{before.mu - 2, before.sigma - 1};
    store->rate_match(id, {{a.id, 0, 1, before, up}, {h.id, 1, 1, before, down}},
                      {{0, log, first}, {1, "", second}});

    const auto bot =
        bot_json(*store, read_roster(*store), "a", false, {{store->bot("a")->id, "queued"}});
    REQUIRE(bot);
    CHECK((*bot)["status"] == "queued");
    CHECK((*bot)["games"]["games"] == 2);
    CHECK((*bot)["games"]["out"] == nlohmann::json{{"exited", 1}});
    CHECK((*bot)["games"]["think_ms"].get<double>() == Approx(200));  // (100 + 300) / 2
    CHECK((*bot)["games"]["cpu_ms"].get<double>() == Approx(15));     // its seats: 10 and 20
    CHECK((*bot)["games"]["cpu_wait_ms"].is_null());
    const auto& played = (*bot)["versions"][0]["matches"][0];
    CHECK(played["change"].get<double>() == Approx(2));
    CHECK(played["conservative"].get<double>() == Approx(up.mu - 3 * up.sigma));
    CHECK(played["table"].size() == 2);
    CHECK(played["table"][1]["bot"] == "h");
    REQUIRE(played["games"].size() == 2);
    CHECK(played["games"][0] ==
          nlohmann::json{{"rotation", 0}, {"seat", 0}, {"place", 1}, {"out_code", nullptr}});
    CHECK(played["games"][1] ==
          nlohmann::json{{"rotation", 1}, {"seat", 1}, {"place", 0}, {"out_code", "exited"}});
    const auto house = bot_json(*store, read_roster(*store), "h");
    CHECK((*house)["status"] == "queued");  // a house bot's seats wait when nothing says else
    CHECK((*house)["games"]["out"] == nlohmann::json{{"illegal_peel", 1}});
    CHECK((*house)["games"]["think_ms"].is_null());

    const auto match = match_json(*store, read_roster(*store), id);
    REQUIRE(match);
    const auto& games = (*match)["games"];
    CHECK(games[0]["seats"][0]["bot"] == "a");
    CHECK(games[1]["seats"][0]["bot"] == "h");
    CHECK(games[1]["seats"][1]["bot"] == "a");
    CHECK(games[1]["seats"][1]["out_code"] == "exited");
    CHECK(games[0]["page"] == fmt::format("/matches/{}/games/0", id));
    CHECK(games[1]["page"].is_null());  // no log kept
    CHECK((*match)["entrants"][1]["kind"] == "house");
    // A house bot's version is its command, which the public sees only as a digest; what it is,
    // the organiser says in words.
    CHECK((*match)["entrants"][1]["bot_version"] == "house-" + token_hash("true").substr(0, 8));
    CHECK((*house)["versions"][0]["version"] == (*match)["entrants"][1]["bot_version"]);
    CHECK((*house)["about"].is_null());
    store->set_about(store->bot("h")->id, "level 1: a person's pace");
    CHECK((*bot_json(*store, read_roster(*store), "h"))["about"] == "level 1: a person's pace");
    CHECK((*match)["entrants"][0]["bot_version"] == "v1");  // a remote bot's, as it said

    // Over: the log that was kept is served, as records and as the game's page.
    const auto records = game_records_json(*store, id, 0);
    REQUIRE(records);
    CHECK((*records)["records"][0]["start"]["seed_text"] == "5");
    CHECK(arena_page(*store, fmt::format("/matches/{}/games/0", id), ""));
    CHECK(!game_records_json(*store, id, 1));  // its log was not kept
    CHECK(!game_records_json(*store, id, 2));
    // The store keeps the log as the match is rated: with its file gone, it is served the same.
    std::filesystem::remove(log);
    REQUIRE(game_records_json(*store, id, 0));
    CHECK(*game_records_json(*store, id, 0) == *records);
    CHECK(store->game_log(id, 0)->starts_with(R"({"seq":0,"start":{"seed":5}})"));
    CHECK(!store->game_log(id, 1));

    const Roster roster = read_roster(*store);
    const auto board = leaderboard_json(roster, fit_of(roster.rankings(), roster.entry_ids()),
                                        false, {{store->bot("a")->id, "playing"}});
    CHECK(board["leaderboard"][0]["name"] == "a");
    CHECK(board["leaderboard"][0]["status"] == "playing");
    CHECK(board["leaderboard"][1]["status"] == "queued");
    CHECK(board["leaderboard"][0]["last_match"] == store->match(id)->finished);
    CHECK(board["leaderboard"][1]["about"] == "level 1: a person's pace");
    CHECK(board["leaderboard"][1]["version"] == "house-" + token_hash("true").substr(0, 8));

    // The matches over, the latest first: a running one is not among them.
    const int playing = store->begin_match(6).id;
    const auto over = store->last_over(10);
    REQUIRE(over.size() == 1);
    CHECK(over[0].id == id);
    CHECK(store->match(playing)->state == "running");

    // When a bot was paused: kept with why, and gone once it plays again.
    store->set_paused(store->bot("a")->id, "three faults");
    CHECK(!store->bot("a")->paused_at.empty());
    CHECK((*bot_json(*store, read_roster(*store), "a"))["status"] == "paused");
    store->set_paused(store->bot("a")->id, "");
    CHECK(store->bot("a")->paused_at.empty());
    std::filesystem::remove(log);
}

TEST_CASE("arena: a page's path names one thing, or nothing", "[arena][api]") {
    CHECK(page_path("/live")->kind == PagePath::live_page);
    CHECK(page_path("/bots/L5")->name == "L5");
    CHECK(page_path("/people/pat")->kind == PagePath::person_page);
    CHECK(page_path("/matches/12")->match == 12);
    CHECK(page_path("/seasons")->kind == PagePath::seasons_page);
    CHECK(page_path("/seasons/autumn")->kind == PagePath::season_page);
    CHECK(page_path("/seasons/autumn")->name == "autumn");
    const auto game = page_path("/matches/12/games/0");
    REQUIRE(game);
    CHECK((game->kind == PagePath::game_page && game->match == 12 && game->rotation == 0));
    for (const char* none : {"/bots/", "/bots/a/b", "/bots/..", "/bots/a%20b", "/matches/012",
                             "/matches/0", "/matches/-1", "/matches/1/games/01",
                             "/matches/1/games/", "/matches/1/game/0", "/matches/1234567890",
                             "/live/", "/matches/1/", "/seasons/", "/seasons/..", "/seasons/a/b"}) {
        INFO(none);
        CHECK(!page_path(none));
    }
}

TEST_CASE(
    "arena: wrong tokens and codes are counted by address, past the limit refused before "
    "a lookup but for one let in from there before, and forgotten after a minute",
    "[arena][lobby]") {
    ScratchArena arena("lobby");
    auto& store = arena.store;
    const std::string token = store->add_bot("r1", "", std::nullopt, std::nullopt);
    remote::Desk desk;
    std::uint64_t now = 1'000'000;
    Lobby::Options options;
    options.failures_a_minute = 3;
    Lobby lobby(
        *store, desk, [&] { return now; }, options);
    const auto status = [&](const std::string& bearer, const std::string& peer) {
        remote::Gate::Knock knock;
        knock.path = "/bot";
        knock.session = true;
        knock.bearer = bearer;
        knock.peer = peer;
        const auto admitted = lobby.admit(knock);
        if (const auto* refused = std::get_if<remote::Gate::Refusal>(&admitted))
            return refused->status;
        return 101;
    };
    const std::string wrong(32, 'W');
    for (int i = 0; i < 3; ++i)
        CHECK(status(wrong, "10.0.0.1") == 401);
    CHECK(status(token, "10.0.0.1") == 429);  // the right token too: nothing is looked up
    CHECK(status(wrong, "10.0.0.1") == 429);  // and a refusal here counts no further
    CHECK(status(token, "10.0.0.2") == 101);  // another address is not held back
    CHECK(status("", "10.0.0.1") == 429);
    now += 59'999;
    CHECK(status(token, "10.0.0.1") == 429);
    now += 1;  // a minute after the first failure: they are forgotten
    CHECK(status(token, "10.0.0.1") == 101);
    // Now let in from 10.0.0.1, the token is not locked out by another's guesses from there (a
    // NAT): every other token and code still is, so guessing stays as bounded as it was.
    for (int i = 0; i < 3; ++i)
        CHECK(status(wrong, "10.0.0.1") == 401);
    CHECK(status(wrong, "10.0.0.1") == 429);
    CHECK(status(std::string(32, 'X'), "10.0.0.1") == 429);
    CHECK(status(token, "10.0.0.1") == 101);
    const std::string other = store->add_bot("r2", "", std::nullopt, std::nullopt);
    CHECK(status(other, "10.0.0.1") == 429);  // never let in from there
    CHECK(status(other, "10.0.0.3") == 101);
}

TEST_CASE(
    "arena: a person's ticket stands for its name and code once, for 30 s, and the oldest goes "
    "past the most kept",
    "[arena][tickets]") {
    std::uint64_t now = 1'000'000;
    Tickets tickets([&now] { return now; });
    const std::string first = tickets.issue("pat", "CODE0123456789abcdef");
    const std::string second = tickets.issue("pat", "CODE0123456789abcdef");
    CHECK(first.size() == 32);
    CHECK(first != second);  // drawn fresh
    const auto who = tickets.find(first);
    REQUIRE(who);
    CHECK(who->name == "pat");
    CHECK(who->code == "CODE0123456789abcdef");
    std::string another = first;
    another[0] = another[0] == 'T' ? 'U' : 'T';  // one character off, whatever was drawn
    CHECK(!tickets.find(another));               // another token: nobody
    tickets.spend(first);
    CHECK(!tickets.find(first));  // spent: once only
    CHECK(tickets.find(second));
    now += Tickets::good_ms - 1;
    CHECK(tickets.find(second));
    now += 1;
    CHECK(!tickets.find(second));  // stale
    // Stale ones go as others are issued; past the most kept, the oldest goes.
    const std::string oldest = tickets.issue("a", "CODE0123456789abcdef");
    now += 1;
    for (std::size_t i = 1; i < Tickets::most_kept; ++i)
        tickets.issue("b", "CODE0123456789abcdef");
    CHECK(tickets.kept() == Tickets::most_kept);
    CHECK(tickets.find(oldest));
    tickets.issue("c", "CODE0123456789abcdef");
    CHECK(tickets.kept() == Tickets::most_kept);
    CHECK(!tickets.find(oldest));
}
