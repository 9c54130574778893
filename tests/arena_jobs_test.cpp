// The matches workers play (arena/jobs.hpp), on the store's database (SQLite here; PostgreSQL
// where BG_TEST_POSTGRESQL names a server): a job claimed by one worker alone, only by a worker
// of its word list with the cores for it, its lease renewed or run out (then its result is
// refused and nothing of it kept), its result and logs taken in the order workers finished and
// moved into the match's games as it is rated, never twice; the workers' cores as they last
// said; archives kept once by their digest. And what passes between the holder and its front
// nodes that seat (arena/front_mail.hpp): jobs addressed to a front, and the messages each way.
#include <catch2/catch.hpp>

#include <chrono>
#include <set>
#include <thread>

#include "arena/front_mail.hpp"
#include "arena/jobs.hpp"
#include "arena/store.hpp"
#include "serve/gzip.hpp"
#include "tests/support/scratch_arena.hpp"

using namespace bg;
using namespace bg::arena;
using bg::test::ScratchArena;
using bg::test::told_within;

namespace {

GameResult two_seats() {
    GameResult result;
    result.end = End::bananas;
    result.winner = 0;
    for (int s = 0; s < 2; ++s) {
        PlayerResult p;
        p.rank = s + 1;
        p.outcome = s == 0 ? Outcome::won : Outcome::lost;
        result.players.push_back(p);
    }
    result.players[1].counts = PeelCounts{1, 2, 3.5};
    return result;
}

// A match begun in the store and queued for the workers.
JobPlan queued(Store& store, const std::string& words = "abc", int players = 2) {
    JobPlan plan;
    plan.match = store.begin_match(9).id;
    plan.seed = 9;
    plan.game = {{"clock", 1}};
    plan.entrants = {{1, "h", 1, "true", "true", ""}, {2, "s", 2, "s-1", "./run", "ff00"}};
    store.jobs().queue(plan, words, players);
    return plan;
}

JobResult played_result(const std::string& worker) {
    JobResult result;
    result.complete = true;
    for (int r = 0; r < 2; ++r)
        result.games.push_back({r, worker + ":/logs/match-" + std::to_string(r), two_seats()});
    return result;
}

std::vector<std::pair<int, std::string>> logs_of(int match) {
    return {{0, serve::gzip("log 0 of " + std::to_string(match))},
            {1, serve::gzip("log 1 of " + std::to_string(match))}};
}

// What seat 1 of the second game wrote to stderr (the others wrote nothing).
std::vector<SeatStderr> stderr_of(int match) {
    return {{1, 1, serve::gzip("[player 2] stderr of " + std::to_string(match))}};
}

}  // namespace

TEST_CASE("arena: a worker's job is claimed once, played, and rated with its logs, once",
          "[arena][store][jobs]") {
    ScratchArena arena("jobs");
    Store& store = *arena.store;
    Jobs& jobs = store.jobs();
    const JobPlan first = queued(store);
    const JobPlan second = queued(store);
    CHECK(jobs.queued() == std::vector<int>{first.match, second.match});
    // Not another word list's worker, nor one without the cores for it.
    CHECK(!jobs.claim("w1", "xyz", 8, 30'000));
    CHECK(!jobs.claim("w1", "abc", 1, 30'000));
    // The oldest first, its plan whole.
    const auto claimed = jobs.claim("w1", "abc", 2, 30'000);
    REQUIRE(claimed);
    CHECK(claimed->match == first.match);
    CHECK(to_json(*claimed) == to_json(first));
    const auto next = jobs.claim("w2", "abc", 4, 30'000);
    REQUIRE(next);
    CHECK(next->match == second.match);
    CHECK(!jobs.claim("w3", "abc", 4, 30'000));
    CHECK(jobs.queued().empty());
    // Renewed by its worker alone.
    CHECK(jobs.renew(first.match, "w1", 30'000));
    CHECK(!jobs.renew(first.match, "w2", 30'000));
    // Finished in the other order: taken in the order they finished.
    CHECK(!jobs.finish(second.match, "w1", played_result("w1"), logs_of(second.match)));
    CHECK(jobs.finish(second.match, "w2", played_result("w2"), logs_of(second.match),
                      stderr_of(second.match)));
    CHECK(jobs.finish(first.match, "w1", played_result("w1"), logs_of(first.match),
                      stderr_of(first.match)));
    CHECK(!jobs.finish(first.match, "w1", played_result("w1"), logs_of(first.match)));
    const auto played = jobs.played();
    REQUIRE(played.size() == 2);
    CHECK(played[0].match == second.match);
    CHECK(played[0].worker == "w2");
    CHECK(played[1].match == first.match);
    CHECK(played[0].result.games == played_result("w2").games);  // the counts too
    CHECK(played[0].unreadable.empty());
    // Rated: the logs moved into its games (its files are on the worker's machine).
    store.add_bot("h", "", std::string("true"), 25.0);
    store.add_bot("s", "", std::nullopt, std::nullopt);
    const Entry h = store.entry(*store.bot("h"), "true");
    const Entry s = store.entry(*store.bot("s"), "s-1");
    const std::vector<Rated> rated = {{h.id, 0, 1, h.belief, h.belief},
                                      {s.id, 1, 2, s.belief, s.belief}};
    store.rate_match(second.match, rated, played[0].result.games);
    CHECK(store.game_log(second.match, 1) == "log 1 of " + std::to_string(second.match));
    CHECK(store.games_of(second.match)[1].log == "w2:/logs/match-1");
    // Its players' stderr kept too, for their authors: what each wrote, and none where nothing.
    CHECK(store.game_stderr(second.match, 1, 1) ==
          "[player 2] stderr of " + std::to_string(second.match));
    CHECK(!store.game_stderr(second.match, 1, 0));
    CHECK(!store.game_stderr(second.match, 0, 1));
    CHECK(arena.store->jobs().played().size() == 1);
    CHECK_THROWS(store.rate_match(second.match, rated, played[0].result.games));
    // Void: its logs dropped with it.
    store.void_match(first.match, "decided by the machine");
    CHECK(jobs.played().empty());
    CHECK(!store.game_log(first.match, 0));
    CHECK(!store.game_stderr(first.match, 1, 1));
    // A result no one can read (a worker of another version): said, the others still read.
    const JobPlan third = queued(store);
    REQUIRE(jobs.claim("w1", "abc", 2, 30'000));
    REQUIRE(jobs.finish(third.match, "w1", played_result("w1"), logs_of(third.match)));
    arena.exec("UPDATE jobs SET result = '{\"games\": 3}' WHERE match_id = " +
               std::to_string(third.match));
    const auto unread = jobs.played();
    REQUIRE(unread.size() == 1);
    CHECK(!unread[0].unreadable.empty());
}

TEST_CASE("arena: a worker's lease that runs out ends its claim, and its result is refused",
          "[arena][store][jobs]") {
    ScratchArena arena("leases");
    Store& store = *arena.store;
    Jobs& jobs = store.jobs();
    const JobPlan plan = queued(store);
    REQUIRE(jobs.claim("w1", "abc", 2, 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    // Past its lease: neither renewed nor stored, even before the arena has looked.
    CHECK(!jobs.renew(plan.match, "w1", 30'000));
    CHECK(!jobs.finish(plan.match, "w1", played_result("w1"), logs_of(plan.match)));
    // Ended once: by the first look that finds it past its lease.
    CHECK(jobs.expired() == std::vector<std::pair<int, std::string>>{{plan.match, "w1"}});
    CHECK(jobs.expired().empty());
    CHECK(!jobs.renew(plan.match, "w1", 30'000));
    CHECK(!jobs.finish(plan.match, "w1", played_result("w1"), logs_of(plan.match)));
    CHECK(jobs.played().empty());
    // Cancelled as the arena stops: a queued job, claimed by no one after.
    const JobPlan other = queued(store);
    jobs.cancel(other.match);
    CHECK(!jobs.claim("w1", "abc", 2, 30'000));
    // Left running by an arena killed: its job ends with it.
    const JobPlan left = queued(store);
    REQUIRE(jobs.claim("w1", "abc", 2, 30'000));
    CHECK(store.void_running("stopped") >= 1);
    CHECK(!jobs.renew(left.match, "w1", 30'000));
}

TEST_CASE("arena: the workers' cores as they last said, and archives kept once",
          "[arena][store][jobs]") {
    ScratchArena arena("workers");
    Jobs& jobs = arena.store->jobs();
    CHECK(jobs.seen(10'000, "abc").cores == 0);
    jobs.hello("w1", "here", 2, "abc");
    jobs.hello("w2", "there", 4, "abc");
    // Another word list's worker: not counted, for it claims none of these.
    jobs.hello("w3", "there", 8, "xyz");
    CHECK(jobs.seen(10'000, "xyz").cores == 8);
    CHECK(jobs.seen(10'000, "abc").cores == 6);
    CHECK(jobs.seen(10'000, "abc").largest == 4);
    jobs.hello("w2", "there", 3, "abc");
    CHECK(jobs.seen(10'000, "abc").cores == 5);
    jobs.goodbye("w2");
    CHECK(jobs.seen(10'000, "abc").largest == 2);
    // Seen too long ago: not counted.
    arena.exec("UPDATE workers SET seen_ms = seen_ms - 60000");
    CHECK(jobs.seen(10'000, "abc").cores == 0);

    const std::string bytes("\x1f\x8b\0\x01 an archive", 14);
    CHECK(!jobs.has_archive("d1"));
    jobs.keep_archive("d1", bytes);
    jobs.keep_archive("d1", bytes);
    CHECK(jobs.has_archive("d1"));
    CHECK(jobs.archive("d1") == bytes);
    CHECK(!jobs.archive("d2"));
}

TEST_CASE("arena: workers claiming at once never claim one job twice", "[arena][store][jobs]") {
    ScratchArena arena("claims");
    for (int i = 0; i < 40; ++i)
        queued(*arena.store);
    // Four workers, each its own connection, claiming as fast as they can.
    std::vector<std::vector<int>> claimed(4);
    std::vector<std::thread> workers;
    for (std::size_t w = 0; w < claimed.size(); ++w)
        workers.emplace_back([&, w] {
            auto opened = Store::open(arena.path, false);
            auto& store = *std::get<std::unique_ptr<Store>>(opened);
            const std::string name = "w" + std::to_string(w);
            for (;;) {
                std::optional<JobPlan> plan;
                try {
                    plan = store.jobs().claim(name, "abc", 2, 30'000);
                } catch (const std::exception&) {
                    continue;  // SQLite's busy writer: tried again
                }
                if (!plan)
                    break;
                claimed[w].push_back(plan->match);
            }
        });
    for (auto& t : workers)
        t.join();
    std::multiset<int> all;
    for (const auto& some : claimed)
        all.insert(some.begin(), some.end());
    CHECK(all.size() == 40);
    CHECK(std::set<int>(all.begin(), all.end()).size() == 40);
}

TEST_CASE("arena: a job queued tells the workers and one played tells the arena, as each commits",
          "[arena][store][jobs]") {
    ScratchArena arena("notified");
    auto opened = Store::open(arena.path, false);
    Store& worker = *std::get<std::unique_ptr<Store>>(opened);
    sql::Connection& arena_db = arena.store->jobs().connection();
    sql::Connection& worker_db = worker.jobs().connection();
    arena_db.listen(Jobs::played_channel);
    worker_db.listen(Jobs::queued_channel);
    if (!test::test_postgresql()) {
        // SQLite notifies nothing: its arena and workers look on their clocks alone.
        queued(*arena.store);
        CHECK(!told_within(worker_db, 50));
        CHECK(worker_db.wake_fd() == -1);
        return;
    }
    CHECK(worker_db.wake_fd() >= 0);
    CHECK(!worker_db.notified());
    const JobPlan plan = queued(*arena.store);
    CHECK(told_within(worker_db, 5'000));
    CHECK(!worker_db.notified());  // told once
    CHECK(!arena_db.notified());   // not the arena's channel
    REQUIRE(worker.jobs().claim("w", "abc", 2, 30'000));
    // Told as the result commits, not before: a transaction rolled back tells no one.
    {
        sql::Transaction transaction(worker_db);
        worker_db.notify(Jobs::played_channel);
    }
    CHECK(!told_within(arena_db, 200));
    REQUIRE(worker.jobs().finish(plan.match, "w", played_result("w"), logs_of(plan.match)));
    CHECK(told_within(arena_db, 5'000));
    // Its session cut (as by a restart of the server): it says some may have been missed, and
    // it listens again on the session its next statement makes.
    const auto pid = worker_db.query("SELECT pg_backend_pid()").at(0).number(0);
    arena_db.execute("SELECT pg_terminate_backend(?)", {std::int64_t{pid}});
    CHECK(told_within(worker_db, 5'000));
    const std::uint64_t session = worker_db.session();
    CHECK_NOTHROW(worker.jobs().queued());
    CHECK(worker_db.session() != session);
    CHECK(worker_db.notified());  // the new session's: what came meanwhile was missed
    queued(*arena.store);
    CHECK(told_within(worker_db, 5'000));
}

TEST_CASE("arena: a job addressed to a front node is that front's alone, and plays its seats",
          "[arena][store][jobs][fronts]") {
    ScratchArena arena("front-jobs");
    Store& store = *arena.store;
    Jobs& jobs = store.jobs();
    JobPlan plan;
    plan.match = store.begin_match(5).id;
    plan.seed = 5;
    plan.game = {{"clock", 1}};
    plan.entrants = {{1, "h", 1, "true", "true", ""}, {2, "far", 2, "v1", "", ""}};
    plan.entrants[1].connection = std::uint64_t{1} << 40;  // named by the front, of any size
    plan.entrants[1].mu = 27.5;
    plan.entrants[1].sigma = 3.25;
    jobs.queue(plan, "abc", 2, "front-a:8080");
    const JobPlan any = queued(store);
    // No worker takes it, however many cores it has; nor another front.
    const auto by_worker = jobs.claim("w1", "abc", 64, 30'000);
    REQUIRE(by_worker);
    CHECK(by_worker->match == any.match);
    CHECK(!jobs.claim("w1", "abc", 64, 30'000));
    CHECK(!jobs.claim("front-b:8080", "abc", 0, 30'000, "front-b:8080"));
    // Its front takes it whatever its cores (the core counted them) and its word list (it
    // refuses a match of another's itself: void, not left queued), its seats as they were named.
    const auto claimed = jobs.claim("front-a:8080", "xyz", 0, 30'000, "front-a:8080");
    REQUIRE(claimed);
    CHECK(claimed->match == plan.match);
    REQUIRE(claimed->entrants.size() == 2);
    CHECK(claimed->entrants[0].connection == 0);
    CHECK(claimed->entrants[1].connection == plan.entrants[1].connection);
    CHECK(claimed->entrants[1].mu == 27.5);
    CHECK(claimed->entrants[1].sigma == 3.25);
    CHECK(claimed->entrants[1].command.empty());
    // Played and stored as a worker's: the arena takes it as any played job.
    REQUIRE(jobs.finish(plan.match, "front-a:8080", played_result("front-a:8080"),
                        logs_of(plan.match)));
    const auto played = jobs.played();
    REQUIRE(played.size() == 1);
    CHECK(played[0].match == plan.match);
    CHECK(played[0].worker == "front-a:8080");
}

TEST_CASE(
    "arena: messages between the holder and its fronts are taken once, in order, each by "
    "its reader",
    "[arena][store][fronts]") {
    ScratchArena arena("front-mail");
    auto opened = Store::open(arena.path, false);
    Store& front = *std::get<std::unique_ptr<Store>>(opened);
    FrontMail& holder_mail = arena.store->fronts();
    FrontMail& front_mail = front.fronts();
    // The fronts as they last said they were there.
    CHECK(holder_mail.seen(10'000).empty());
    front_mail.hello("a:1", 2);
    front_mail.hello("b:1", 0);
    front_mail.hello("a:1", 3);
    CHECK(holder_mail.seen(10'000) == std::map<std::string, int>{{"a:1", 3}, {"b:1", 0}});
    front_mail.goodbye("b:1");
    CHECK(holder_mail.seen(10'000) == std::map<std::string, int>{{"a:1", 3}});
    // Each way, in the order written, taken once by its reader and by no one else.
    for (int i = 0; i < 5; ++i) {
        front_mail.to_holder(i % 2 ? "b:1" : "a:1", {{"kind", "n"}, {"i", i}});
        holder_mail.to_front("a:1", {{"kind", "m"}, {"i", i}});
    }
    holder_mail.to_front("b:1", {{"kind", "m"}, {"i", 9}});
    CHECK(front_mail.take_for("c:1").empty());
    const auto for_a = front_mail.take_for("a:1");
    REQUIRE(for_a.size() == 5);
    for (int i = 0; i < 5; ++i)
        CHECK(for_a[i].at("i") == i);
    CHECK(front_mail.take_for("a:1").empty());
    const auto for_holder = holder_mail.take_for_holder();
    REQUIRE(for_holder.size() == 5);
    for (int i = 0; i < 5; ++i) {
        CHECK(for_holder[i].node == (i % 2 ? "b:1" : "a:1"));
        CHECK(for_holder[i].body.at("i") == i);
    }
    CHECK(holder_mail.take_for_holder().empty());
    // A holder that begins: what its predecessor left either way is dropped.
    front_mail.to_holder("a:1", {{"kind", "stale"}});
    holder_mail.to_front("b:1", {{"kind", "stale"}});
    holder_mail.begin_holding();
    CHECK(holder_mail.take_for_holder().empty());
    CHECK(front_mail.take_for("b:1").empty());
    // An outbox: what cannot be written waits, in order, and goes once the store answers.
    bool away = true;
    std::vector<std::pair<std::string, int>> written;
    Outbox outbox([&](const std::string& to, const nlohmann::json& body) {
        if (away)
            throw std::runtime_error("the store is away");
        written.emplace_back(to, body.at("i").get<int>());
    });
    for (int i = 0; i < 3; ++i)
        outbox.push(i == 1 ? "b" : "a", {{"i", i}});
    std::string why;
    CHECK(!outbox.flush(&why));
    CHECK(why == "the store is away");
    CHECK(!outbox.empty());
    away = false;
    CHECK(outbox.flush());
    CHECK(outbox.empty());
    CHECK(written == std::vector<std::pair<std::string, int>>{{"a", 0}, {"a", 2}, {"b", 1}});
}
