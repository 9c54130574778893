// Remote seats without the network: the tokens, the desk's answers, and a RemoteSeat driven
// through a fake link on a real loop (its grace timer, what a returning connection is sent).
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "connect/seat_url.hpp"
#include "remote/desk.hpp"
#include "remote/remote_seat.hpp"
#include "remote/token.hpp"
#include "transport/handles.hpp"

using namespace bg;
using namespace bg::remote;

namespace {

const std::string token = "Abcdefghijklmnop_0123-xyz";

// A connection as the server keeps one: what it was sent, pinged and closed with.
struct FakeLink final : RemoteSeat::Link {
    void send(std::string_view bytes) override { sent += bytes; }
    std::size_t unsent_bytes() const override { return unsent; }
    void ping() override { ++pings; }
    void close(int code, std::string_view reason) override {
        closed_code = code;
        closed_reason = std::string(reason);
    }
    std::string sent;
    std::size_t unsent = 0;
    int pings = 0;
    int closed_code = 0;
    std::string closed_reason;
};

// What a seat told its match.
struct Told {
    std::string output;
    std::vector<std::string> notes;
    std::string left;
    bool finished = false;
};

Seat::Events events_into(Told& told) {
    Seat::Events events;
    events.output = [&told](std::string_view bytes) { told.output += bytes; };
    events.output_end = [] {};
    events.log = [](std::string_view) {};
    events.exited = [](std::int64_t, int) {};
    events.gone = [&told](OutCode code, std::string reason) {
        CHECK(code == OutCode::left);
        told.left = std::move(reason);
    };
    events.send_failed = [](std::string) {};
    events.finished = [&told] { told.finished = true; };
    events.note = [&told](std::string what) { told.notes.push_back(std::move(what)); };
    return events;
}

}  // namespace

TEST_CASE("remote: tokens are checked, drawn fresh, compared whole, and never shown", "[remote]") {
    CHECK(is_remote("remote:"));
    CHECK(is_remote("remote:" + token));
    CHECK_FALSE(is_remote("python3 remote:bot.py"));
    CHECK(token_of("remote:" + token) == token);
    CHECK(token_of("remote:").empty());
    CHECK(token_problem(token).empty());
    CHECK(token_problem(std::string(16, 'a')).empty());
    CHECK(token_problem(std::string(64, 'a')).empty());
    CHECK_FALSE(token_problem(std::string(15, 'a')).empty());
    CHECK_FALSE(token_problem(std::string(65, 'a')).empty());
    CHECK_FALSE(token_problem("abcdefghijklmnop/").empty());
    CHECK_FALSE(token_problem("abcdefghijklmnop ").empty());
    std::set<std::string> drawn;
    for (int i = 0; i < 100; ++i) {
        const std::string fresh = draw_token();
        CHECK(fresh.size() == 32);
        CHECK(token_problem(fresh).empty());
        drawn.insert(fresh);
    }
    CHECK(drawn.size() == 100);
    // A token is looked up by its SHA-256 (FIPS 180-2's test vector "abc").
    CHECK(token_digest("abc") ==
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(token_digest(token) == token_digest(std::string(token)));
    std::string last_differs = token;
    last_differs.back() = 'q';
    CHECK(token_digest(last_differs) != token_digest(token));
    CHECK(token_digest(token + "x") != token_digest(token));
    CHECK(shown_command("remote:" + token) == "remote:");
    CHECK(shown_command("exec bot") == "exec bot");
}

TEST_CASE("remote: the desk lets in a seat's token alone, from no page or its own origin",
          "[remote]") {
    EventLoop loop;
    Desk desk;
    {
        RemoteSeat seat(loop.get(), desk, token, {});
        const auto status = [&](std::string_view path, std::string_view origin = "") {
            auto admitted = desk.admit({path, origin, "127.0.0.1:8080"});
            const auto* refusal = std::get_if<Desk::Refusal>(&admitted);
            return refusal ? refusal->status : 0;
        };
        // Before its game begins, its door is not open.
        CHECK(status("/seat/" + token) == 503);
        seat.attach(Seat::Events{});
        CHECK(seat.open().empty());
        CHECK(status("/seat/" + token) == 0);
        CHECK(status("/seat/" + token, "http://127.0.0.1:8080") == 0);
        CHECK(status("/seat/" + token, "https://127.0.0.1:8080") == 0);
        CHECK(status("/seat/" + token, "http://elsewhere.example") == 403);
        CHECK(status("/seat/" + token, "http://127.0.0.1:8081") == 403);
        CHECK(status("/seat/") == 401);
        CHECK(status("/seat/" + token.substr(1)) == 403);
        CHECK(status("/seats/" + token) == 404);
        CHECK(status("/") == 404);
        FakeLink link;
        seat.join(link, 0);
        CHECK(status("/seat/" + token) == 409);
        CHECK(desk.games_after(token, &seat) == 0);
        seat.close(0, 0);
        CHECK(status("/seat/" + token) == 410);
        // A bot of a tournament between its games: told to try again, not that it is wrong,
        // nor that its last game is over.
        desk.expect("another_token_0123456789", 1);
        CHECK(status("/seat/another_token_0123456789") == 503);
        desk.expect(token, 2);
        CHECK(status("/seat/" + token) == 503);
        // Its next game's seat beside the last one's, closed: the open one is taken, and it is
        // told that one more game follows.
        RemoteSeat next(loop.get(), desk, token, {});
        next.attach(Seat::Events{});
        next.open();
        CHECK(status("/seat/" + token) == 0);
        CHECK(desk.games_after(token, &next) == 1);
        // Two at once (a tournament's concurrent games): each counts the other.
        RemoteSeat beside(loop.get(), desk, token, {});
        CHECK(desk.games_after(token, &next) == 1);
        CHECK(desk.games_after(token, &beside) == 1);
        beside.attach(Seat::Events{});
        beside.close(0, 0);
        next.close(0, 0);
        // After its last: its games are over (410), and a token never seen is still wrong.
        CHECK(status("/seat/" + token) == 410);
        CHECK(status("/seat/never_seen_token_0123456") == 403);
        // A run that stops: the seats it expected will not come.
        CHECK(status("/seat/another_token_0123456789") == 503);
        desk.expect_no_more();
        CHECK(status("/seat/another_token_0123456789") == 410);
    }
    CHECK(desk.empty());
    loop.run();
}

// A session at the desk between its player's games.
struct FakeSitter final : Gate::Sitter {
    void sit(RemoteSeat& seat) override { seated = &seat; }
    void no_more_games() override { told_none = true; }
    void sent_away(std::string_view) override { told_none = true; }
    RemoteSeat* seated = nullptr;
    bool told_none = false;
};

TEST_CASE(
    "remote: a session waits at the desk for its player's next seat, and is told when none "
    "will come",
    "[remote]") {
    EventLoop loop;
    Desk desk;
    const std::string other = "another_token_0123456789";
    desk.expect(token, 2);
    desk.expect(other, 1);
    const auto admitted = [&](bool session) {
        return desk.admit({"/seat/" + token, "", "127.0.0.1:8080", session});
    };
    // Between games a connection for one game is told to try again; a session waits.
    CHECK(std::get<Desk::Refusal>(admitted(false)).status == 503);
    CHECK(std::holds_alternative<Gate::Wait>(admitted(true)));
    FakeSitter sitter, bystander;
    desk.wait(token, sitter);
    desk.wait(other, bystander);
    {
        RemoteSeat first(loop.get(), desk, token, {});
        first.attach(Seat::Events{});
        CHECK(std::holds_alternative<Gate::Wait>(admitted(true)));  // made, its door not open
        CHECK(sitter.seated == nullptr);
        first.open();  // its door opens: the waiting session takes it, the other waits on
        CHECK(sitter.seated == &first);
        CHECK(bystander.seated == nullptr);
        CHECK(desk.games_after(token, &first) == 1);
        // Its game over, the session waits again; the next seat, open before it comes back,
        // is given to it at once.
        first.close(0, 0);
        RemoteSeat second(loop.get(), desk, token, {});
        second.attach(Seat::Events{});
        second.open();
        FakeSitter back;
        desk.wait(token, back);
        CHECK(back.seated == &second);
        CHECK(desk.games_after(token, &second) == 0);
        second.close(0, 0);
        // After its last game a session is told at once that none will come.
        FakeSitter late;
        desk.wait(token, late);
        CHECK(late.told_none);
        CHECK(std::get<Desk::Refusal>(admitted(true)).status == 410);
    }
    // A run that stops: a session waiting for a seat that will not come is told so.
    CHECK_FALSE(bystander.told_none);
    desk.expect_no_more();
    CHECK(bystander.told_none);
    // One that stops waiting is told nothing more.
    desk.expect(other, 1);
    FakeSitter gone;
    desk.wait(other, gone);
    desk.stop_waiting(gone);
    desk.expect_no_more();
    CHECK_FALSE(gone.told_none);
    loop.run();
}

TEST_CASE(
    "remote: an abandoned token's seats are left at once, open or opened later, a seat it "
    "took ends by its own drop, and a forgotten token is known no more",
    "[remote]") {
    EventLoop loop;
    Desk desk;
    // A long grace and no ready timeout here: only the abandonment can end these seats soon.
    Told taken_told, open_told, later_told;
    RemoteSeat taken(loop.get(), desk, token, {60'000, 1000});
    taken.attach(events_into(taken_told));
    taken.open();
    FakeLink link;
    taken.join(link, 0);
    taken.drop("the connection closed");
    RemoteSeat open(loop.get(), desk, token, {60'000, 1000});
    open.attach(events_into(open_told));
    open.open();
    CHECK_FALSE(desk.abandoned(token));
    desk.abandon(token);
    CHECK(desk.abandoned(token));
    RemoteSeat later(loop.get(), desk, token, {60'000, 1000});
    later.attach(events_into(later_told));
    later.open();
    Timer stop(loop.get(), [&] {
        taken.close(0, 0);
        open.close(0, 0);
        later.close(0, 0);
    });
    stop.start(100);
    loop.run();
    const std::string abandoned =
        "its connection closed in an earlier game of its match, and no connection comes back to "
        "a match's seat";
    CHECK(open_told.left == abandoned);
    CHECK(later_told.left == abandoned);
    CHECK(taken_told.left.empty());  // its own grace (a minute) had not run out
    // Another token is not abandoned; a forgotten one is not known at all.
    CHECK_FALSE(desk.abandoned("Zbcdefghijklmnop_0123-xyz"));
    desk.forget_token(token);
    CHECK_FALSE(desk.abandoned(token));
}

TEST_CASE("remote: a dropped connection comes back within the grace and is sent what it missed",
          "[remote]") {
    EventLoop loop;
    Desk desk;
    Told told;
    RemoteSeat seat(loop.get(), desk, token, {200, 1000});
    seat.attach(events_into(told));
    seat.open();
    seat.send("early.");  // before any connection: kept for it
    FakeLink first;
    CHECK(seat.join(first, 0) == 0);
    CHECK(first.sent == "early.");
    CHECK(first.pings == 1);
    seat.receive("v00");
    seat.receive("3");
    CHECK(told.output == "v003");
    seat.send("V0030002.");
    // It drops with 4 bytes unsent: they may not have reached it.
    first.unsent = 4;
    seat.drop("the connection closed");
    CHECK(seat.door() == RemoteSeat::Door::open);
    CHECK(seat.unsent_bytes() == 4);
    seat.send("H0000ABC.");
    FakeLink second;
    // It had received 10 bytes: everything after them, and the host has its 4.
    CHECK(seat.join(second, 10) == 4);
    CHECK(second.sent == "0002.H0000ABC.");
    CHECK(told.notes.back() == "connected again, having received 10 of 24 bytes");
    // Dropped again, and gone for good: after the grace, it has left.
    seat.drop("the connection closed");
    loop.run();
    CHECK(told.left == "its connection dropped and did not come back within 200 ms");
    seat.close(0, 0);
    loop.run();
    CHECK(told.finished);
    const auto used = seat.usage().remote;
    REQUIRE(used);
    CHECK(used->connections == 2);
    CHECK(used->pings == 0);
    CHECK_FALSE(used->rtt_ms);
}

TEST_CASE(
    "remote: a seat's player that closes its connection has left at once, and the "
    "game's end closes it with 1000",
    "[remote]") {
    EventLoop loop;
    Desk desk;
    Told told;
    {
        RemoteSeat seat(loop.get(), desk, token, {60'000, 1000});
        seat.attach(events_into(told));
        seat.open();
        FakeLink link;
        seat.join(link, 0);
        seat.pong(2.0);
        seat.pong(1.0);
        seat.pong(4.0);
        seat.drop("it closed its connection (1000)", true);
        CHECK(told.left == "it closed its connection (1000)");
        CHECK(seat.door() == RemoteSeat::Door::closed);
        const auto used = seat.usage().remote;
        REQUIRE(used);
        CHECK(used->pings == 3);
        CHECK(*used->rtt_ms == 2.0);
        CHECK(*used->rtt_max_ms == 4.0);
        seat.close(0, 0);
        loop.run();
        CHECK(told.finished);
    }
    Told ended;
    RemoteSeat seat(loop.get(), desk, token, {});
    seat.attach(events_into(ended));
    seat.open();
    FakeLink link;
    seat.join(link, 0);
    seat.send("E...");
    seat.close(0, 0);
    CHECK(link.closed_code == 1000);
    CHECK(link.closed_reason == "the game is over");
    CHECK(link.sent == "E...");
    loop.run();
    CHECK(ended.finished);
}

TEST_CASE(
    "remote: a seat keeps its v004 player at the game's end while it is connected, for its owner "
    "to tell it B. before the close",
    "[remote]") {
    EventLoop loop;
    Desk desk;
    Told told;
    RemoteSeat seat(loop.get(), desk, token, {});
    seat.attach(events_into(told));
    seat.open();
    FakeLink link;
    seat.join(link, 0);
    CHECK(seat.keep());
    CHECK(seat.kept());
    CHECK(seat.finished());  // for its game, with its player still there
    CHECK(seat.door() == RemoteSeat::Door::closed);
    CHECK(link.closed_code == 0);
    // Its owner lets it go: B., then the close.
    seat.attach(Seat::Events{});
    seat.send("B.");
    seat.close(0, 0);
    CHECK(link.sent == "B.");
    CHECK(link.closed_code == 1000);
    // A player that has left cannot be kept.
    RemoteSeat gone(loop.get(), desk, token, {});
    gone.attach(events_into(told));
    gone.open();
    FakeLink other;
    gone.join(other, 0);
    gone.drop("it closed its connection (1000)", true);
    CHECK_FALSE(gone.keep());
    gone.close(0, 0);
    loop.run();
}

TEST_CASE("remote: bananagrams-connect takes a seat's URL, and says what is wrong with another",
          "[remote]") {
    const auto parsed = parse_seat_url("ws://127.0.0.1:8080/seat/" + token);
    REQUIRE(std::holds_alternative<SeatUrl>(parsed));
    const auto& url = std::get<SeatUrl>(parsed);
    CHECK(url.host == "127.0.0.1");
    CHECK(url.port == 8080);
    CHECK(url.path == "/seat/" + token);
    CHECK(url.authority() == "127.0.0.1:8080");
    const auto v6 = parse_seat_url("ws://[::1]:9/seat/" + token);
    REQUIRE(std::holds_alternative<SeatUrl>(v6));
    CHECK(std::get<SeatUrl>(v6).host == "::1");
    CHECK(std::get<SeatUrl>(v6).authority() == "[::1]:9");
    CHECK(std::get<SeatUrl>(parse_seat_url("ws://example.org/seat/" + token)).port == 80);
    for (const char* bad :
         {"http://127.0.0.1:8080/seat/x", "wss://127.0.0.1/seat/x", "ws://127.0.0.1:8080",
          "ws://127.0.0.1:8080/seat/", "ws://:80/seat/x", "ws://127.0.0.1:0/seat/x",
          "ws://127.0.0.1:99999/seat/x", "ws://[::1/seat/x", "ws://127.0.0.1/play#x",
          "ws://127.0.0.1/seat/x?y"}) {
        INFO(bad);
        CHECK(std::holds_alternative<std::string>(parse_seat_url(bad)));
    }
}
