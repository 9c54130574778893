// What the arena that holds a database shows its front nodes (arena/published.hpp, arena/
// live_state.hpp), on the store's database (SQLite here; PostgreSQL where BG_TEST_POSTGRESQL
// names a server): the stream's events kept under their ids, in order, the newest so many;
// the live state stored as it changes and read back whole; told as each commits.
#include <catch2/catch.hpp>

#include "arena/live_state.hpp"
#include "arena/published.hpp"
#include "arena/sql_store.hpp"
#include "arena/store.hpp"
#include "tests/support/scratch_arena.hpp"

using namespace bg;
using namespace bg::arena;
using bg::test::ScratchArena;
using bg::test::told_within;

TEST_CASE(
    "arena: the holder's events are kept under their ids, in order, each with the one "
    "before it, the newest so many, and with the state they came with",
    "[arena][nodes]") {
    ScratchArena arena("published_events");
    Published& published = arena.store->published();
    CHECK(published.events_after(0).empty());
    CHECK(published.newest().empty());
    // Ids as a stream gives them: its start's time times 1000, and on by one; a later holder's
    // far above.
    const std::uint64_t first = 1'790'000'000'000'000ULL;
    published.event({{first, "begin", R"({"match":1})"}, 0});
    const std::string state = R"({"a":1})";
    published.event({{first + 1, "match", R"({"match":1,"x":"\u00e9"})"}, first}, &state);
    CHECK(published.state()->json == state);
    CHECK(published.state()->age_ms < 60'000);
    published.event({{first + 5'000'000, "status", "{}"}, first + 1});
    const auto all = published.events_after(0);
    REQUIRE(all.size() == 3);
    CHECK(all[0].event.id == first);
    CHECK(all[0].event.name == "begin");
    CHECK(all[0].after == 0);
    CHECK(all[1].event.data == R"({"match":1,"x":"\u00e9"})");
    CHECK(all[2].event.id == first + 5'000'000);
    CHECK(all[2].after == first + 1);
    const auto after = published.events_after(first, 1);
    REQUIRE(after.size() == 1);
    CHECK(after[0].event.id == first + 1);
    CHECK(published.events_after(first + 5'000'000).empty());
    // An id stored already is left as it is (a retry of one whose commit went unheard).
    published.event({{first + 1, "match", "{}"}, first});
    CHECK(published.events_after(first, 1).at(0).event.data == R"({"match":1,"x":"\u00e9"})");
    // Past the kept, the oldest are let go: the newest events_kept stay, and the newest of
    // them are what a node that starts reads, whatever the table holds beyond.
    const int more = Published::events_kept + 150;
    std::uint64_t before = first + 5'000'000;
    for (int i = 0; i < more; ++i) {
        const std::uint64_t id = first + 6'000'000 + static_cast<std::uint64_t>(i);
        published.event({{id, "status", "{}"}, before});
        before = id;
    }
    const auto kept = published.events_after(0, 5000);
    CHECK(kept.size() >= static_cast<std::size_t>(Published::events_kept));
    CHECK(kept.size() < static_cast<std::size_t>(Published::events_kept + 100));
    CHECK(kept.back().event.id == before);
    for (std::size_t i = 1; i < kept.size(); ++i)
        CHECK(kept[i].after == kept[i - 1].event.id);
    const auto newest = published.newest(10);
    REQUIRE(newest.size() == 10);
    CHECK(newest.back().event.id == before);
    CHECK(newest.front().event.id == before - 9);
}

TEST_CASE("arena: the live state is stored as it is, read back whole, and told to listeners",
          "[arena][nodes]") {
    ScratchArena arena("published_state");
    Published& published = arena.store->published();
    CHECK_FALSE(published.state());
    LiveState state;
    state.queue = {{3, 7, 1200, ""}, {4, 9, 1300, "L2"}};
    state.playing = {{12, {"alpha", "beta"}, 1}};
    state.statuses = {{3, "queued"}, {5, "playing"}};
    state.recent = {{11, "rated", "2026-11-29T07:00:00.000Z"}, {10, "void", "2026-11-29T06:59Z"}};
    state.checking = 2;
    state.unrecorded = 1;
    state.writable = false;
    state.now_ms = 99'000;
    auto made = Store::open(arena.path, false);
    REQUIRE(std::holds_alternative<std::unique_ptr<Store>>(made));
    auto front = std::move(std::get<std::unique_ptr<Store>>(made));
    auto& front_db = dynamic_cast<SqlStore&>(*front).connection();
    front_db.listen(Published::channel);
    told_within(front_db, 50);  // a new session's "some may have been missed"
    published.state(to_json(state).dump());
    CHECK(told_within(front_db, 2000) == arena.postgresql());
    const auto read = front->published().state();
    REQUIRE(read);
    const LiveState back = live_state_from(nlohmann::json::parse(read->json));
    CHECK(back.same_as(state));
    CHECK(back.now_ms == 99'000);
    CHECK(back.queue[1].opponent == "L2");
    CHECK(back.statuses.at(5) == "playing");
    CHECK(back.recent[1].state == "void");
    // A state that differs but for the clock is the same; any other difference is not.
    LiveState later = state;
    later.now_ms += 5000;
    CHECK(later.same_as(state));
    later.playing[0].games_over = 2;
    CHECK_FALSE(later.same_as(state));
    // Stored again in place, and told as it commits (PostgreSQL; SQLite tells no one).
    CHECK_FALSE(told_within(front_db, 50));
    published.state(to_json(later).dump());
    CHECK(told_within(front_db, 2000) == arena.postgresql());
    CHECK(live_state_from(nlohmann::json::parse(front->published().state()->json))
              .playing[0]
              .games_over == 2);
    CHECK_THROWS(live_state_from(nlohmann::json::parse(R"({"queue":[]})")));
}
