// The --serve server's decisions without the network (serve/request.hpp, serve/stream.hpp):
// the address, the routes, the event ids and what a reconnecting client is sent, and the
// bounded queue that drops a client that falls behind.
#include <catch2/catch.hpp>

#include "serve/records.hpp"
#include "serve/request.hpp"
#include "serve/stream.hpp"

using namespace bg::serve;

TEST_CASE("serve: --serve takes an IPv4 or bracketed IPv6 address and a port, nothing else",
          "[serve]") {
    const auto ok = [](const char* text) { return std::get<Address>(parse_address(text)); };
    CHECK(ok("127.0.0.1:8080").host == "127.0.0.1");
    CHECK(ok("127.0.0.1:8080").port == 8080);
    CHECK(ok("127.0.0.1:8080").loopback());
    CHECK(ok("127.1.2.3:0").loopback());
    CHECK_FALSE(ok("0.0.0.0:80").loopback());
    CHECK(ok("[::1]:65535").host == "::1");
    CHECK(ok("[::1]:65535").loopback());
    CHECK(ok("[::1]:65535").authority() == "[::1]:65535");
    CHECK_FALSE(ok("[::]:1").loopback());
    for (const char* bad : {"", "8080", ":8080", "localhost:8080", "127.0.0.1",
                            "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:+80",
                            "::1:80", "[127.0.0.1]:80", "[::1:80", "127.0.0.1:80x", "1.2.3:80"}) {
        INFO(bad);
        CHECK(std::holds_alternative<std::string>(parse_address(bad)));
    }
    // A NUL inside (found by the fuzzer): inet_pton would read only what comes before it.
    CHECK(std::holds_alternative<std::string>(
        parse_address(std::string_view("12.0.0.1\0[::]:80", 16))));
}

TEST_CASE(
    "serve: only the page, the stream, finished games' pages, a person's page and the word list "
    "are served, by GET or HEAD",
    "[serve]") {
    CHECK(route(Method::get, "/").kind == Route::page);
    CHECK(route(Method::head, "/").kind == Route::page);
    CHECK(route(Method::get, "/events").kind == Route::events);
    CHECK(route(Method::get, "/events?x=1").kind == Route::events);
    CHECK(route(Method::get, "/games/12").kind == Route::game_page);
    CHECK(route(Method::get, "/games/12").game == 12);
    CHECK(route(Method::other, "/").kind == Route::not_allowed);
    CHECK(route(Method::other, "/events").kind == Route::not_allowed);
    CHECK(route(Method::get, "/play").kind == Route::play);
    CHECK(route(Method::get, "/rules").kind == Route::rules);
    const Route words = route(Method::get, "/wordlist/0123456789abcdef.txt");
    CHECK(words.kind == Route::word_list_text);
    CHECK(words.fingerprint == "0123456789abcdef");
    CHECK(route(Method::other, "/wordlist/0123456789abcdef.txt").kind == Route::not_allowed);
    for (const char* path : {"",
                             "/index.html",
                             "/../etc/passwd",
                             "/events/",
                             "/games/",
                             "/games/0",
                             "/games/012",
                             "/games/-1",
                             "/games/+1",
                             "/games/1x",
                             "/games/99999999999",
                             "/games/1/../../x",
                             "//",
                             "/%2e%2e/",
                             "/wordlist",
                             "/wordlist/",
                             "/wordlist/0123456789ABCDEF.txt",
                             "/wordlist/0123456789abcde.txt",
                             "/wordlist/0123456789abcdef0.txt",
                             "/wordlist/0123456789abcdef.txt/",
                             "/wordlist/../../../etc/passwd.txt",
                             "/wordlist/0123456789abcdeg.txt"}) {
        INFO(path);
        CHECK(route(Method::get, path).kind == Route::not_found);
    }
}

TEST_CASE("serve: a Last-Event-ID is a plain decimal number", "[serve]") {
    CHECK(parse_last_event_id("17") == 17u);
    CHECK(parse_last_event_id(" 17 ") == 17u);
    CHECK(parse_last_event_id("18446744073709551615") == 18446744073709551615u);
    for (const char* bad : {"", " ", "-1", "+1", "1.5", "0x10", "18446744073709551616", "1 2"})
        CHECK_FALSE(parse_last_event_id(bad));
}

TEST_CASE("serve: ids increase by one, and a reconnection gets what it missed while it is kept",
          "[serve]") {
    Stream stream(1000, 30);
    CHECK(stream.last_id() == 999);
    // Nothing yet: a client that saw the snapshot (id 999) has missed nothing.
    REQUIRE(stream.since(999));
    CHECK(stream.since(999)->empty());
    for (int i = 0; i < 5; ++i)
        CHECK(stream.publish("peel", std::string(10, 'a' + i)).id == 1000u + i);
    CHECK(stream.last_id() == 1004);
    // 30 bytes of data kept: the last three events.
    const auto missed = stream.since(1002);
    REQUIRE(missed);
    REQUIRE(missed->size() == 2);
    CHECK((*missed)[0]->id == 1003);
    CHECK((*missed)[1]->data == "eeeeeeeeee");
    CHECK(stream.since(1001));
    CHECK(stream.since(1001)->size() == 3);
    // Event 1001 is no longer kept: a snapshot. So for ids of another stream, before or after.
    CHECK_FALSE(stream.since(1000));
    CHECK_FALSE(stream.since(5));
    CHECK_FALSE(stream.since(1005));
    CHECK(stream.since(1004)->empty());
    // The newest is kept even when it alone is over the history's size.
    CHECK(stream.publish("standings", std::string(100, 's')).id == 1005);
    CHECK(stream.since(1004)->size() == 1);
    CHECK_FALSE(stream.since(1003));
}

TEST_CASE(
    "serve: events numbered elsewhere are kept in order, their ids may skip, and a "
    "reconnection still gets what it missed",
    "[serve]") {
    Stream stream(1000, 30);
    REQUIRE(stream.publish_as(Event{1000, "begin", std::string(10, 'a')}));
    // An arena's new holder numbers from its own start: far above.
    REQUIRE(stream.publish_as(Event{5000, "match", std::string(10, 'b')}));
    CHECK(stream.last_id() == 5000);
    // Not above the newest: not kept (a front that read an event twice).
    CHECK_FALSE(stream.publish_as(Event{5000, "match", "again"}));
    CHECK_FALSE(stream.publish_as(Event{1200, "match", "late"}));
    const auto after_first = stream.since(1000);
    REQUIRE(after_first);
    REQUIRE(after_first->size() == 1);
    CHECK((*after_first)[0]->id == 5000);
    // An id between two kept events is none this stream gave: a snapshot. The one before a kept
    // event is (a snapshot's, sent before it).
    CHECK_FALSE(stream.since(3000));
    REQUIRE(stream.since(4999));
    CHECK(stream.since(4999)->size() == 1);
    CHECK(stream.publish("status", std::string(10, 'c')).id == 5001);
    CHECK(stream.publish_as(Event{9000, "status", std::string(10, 'd')}));
    // 30 bytes kept: 1000 is gone. One that saw it missed nothing no longer kept; one that
    // saw only what came before it did.
    REQUIRE(stream.since(1000));
    CHECK(stream.since(1000)->size() == 3);
    CHECK_FALSE(stream.since(999));
    REQUIRE(stream.since(5000));
    CHECK(stream.since(5000)->size() == 2);
    CHECK_FALSE(stream.since(9001));
    // After a gap (events between that this stream never had), no one resumes from before it.
    CHECK(stream.publish_as(Event{9500, "match", "x"}, true));
    CHECK_FALSE(stream.since(9000));
    CHECK_FALSE(stream.since(5001));
    REQUIRE(stream.since(9499));
    CHECK(stream.since(9499)->size() == 1);
    CHECK(stream.since(9500)->empty());
}

TEST_CASE("serve: an event on the wire is id, event and one line of data", "[serve]") {
    CHECK(wire(Event{42, "peel_accepted", R"({"game":1})"}) ==
          "id: 42\nevent: peel_accepted\ndata: {\"game\":1}\n\n");
    // Ids begin at the time in milliseconds times 1000: above any earlier stream's.
    const auto first = first_id_now();
    CHECK(first % 1000 == 0);
    CHECK(first > 1'700'000'000'000'000ULL);
    CHECK(first < (1ULL << 53));  // exact in a browser's numbers
}

TEST_CASE("serve: a client's queue holds up to its limit, in order, and refuses what is over",
          "[serve]") {
    SendQueue out(10);
    CHECK(out.empty());
    CHECK(out.push("abcdef"));
    CHECK(out.push("ghij"));
    CHECK_FALSE(out.push("k"));  // full: the server drops this client
    CHECK(out.size() == 10);
    CHECK(out.front(4) == "abcd");
    out.sent(4);
    CHECK(out.size() == 6);
    CHECK(out.push("klmn"));
    CHECK(out.front(100) == "efghijklmn");
    out.sent(3);
    CHECK(out.push("op"));
    CHECK(out.front(100) == "hijklmnop");
    out.sent(100);
    CHECK(out.empty());
    CHECK(out.push("0123456789"));
}

TEST_CASE(
    "serve: a WebSocket's queue keeps binary messages whole and in place between a stream's "
    "bytes, up to its limit",
    "[serve]") {
    MessageQueue out(12);
    CHECK(out.empty());
    CHECK(out.push_text("abc"));
    CHECK(out.push_text("def"));  // joined to the text before it
    CHECK(out.push_binary("{x}"));
    CHECK(out.push_text("gh"));
    CHECK_FALSE(out.push_text("ijkl"));  // over the limit: refused, nothing taken
    CHECK_FALSE(out.push_binary("{yy}"));
    CHECK(out.size() == 11);
    auto next = out.front(4);
    CHECK(next.bytes == "abcd");
    CHECK_FALSE(next.binary);
    out.sent(4);
    // Text given now joins the text after the binary message, never the one before it.
    CHECK(out.push_text("i"));
    CHECK(out.front(100).bytes == "ef");
    out.sent(2);
    next = out.front(1);  // a binary message goes whole, whatever the most asked for
    CHECK(next.bytes == "{x}");
    CHECK(next.binary);
    out.sent(3);
    CHECK(out.front(100).bytes == "ghi");
    CHECK_FALSE(out.front(100).binary);
    out.sent(3);
    CHECK(out.empty());
    CHECK(out.push_binary(""));  // an empty message is a message
    CHECK_FALSE(out.empty());
    CHECK(out.front(10).binary);
    out.sent(0);
    CHECK(out.empty());
}

TEST_CASE(
    "serve: a record's event is named for its decision or its kind, never shows a seed "
    "before the end, and says a seed as text too",
    "[serve]") {
    using nlohmann::json;
    CHECK(bg::serve::record_event_name(json{{"decision", {{"type", "peel_accepted"}}}}) ==
          "peel_accepted");
    CHECK(bg::serve::record_event_name(json{{"input", {{"type", "peel"}}}}) == "input");
    CHECK(bg::serve::record_event_name(json{{"result", json::object()}}) == "result");
    CHECK(bg::serve::record_event_name(json{{"seq", 1}}) == "record");
    const json start = {{"seq", 0}, {"start", {{"seed", 42}, {"sets", 1}}}};
    const json shown = bg::serve::without_seed(start);
    CHECK(shown["start"]["seed"].is_null());
    CHECK(shown["start"]["seed_text"].is_null());
    CHECK(shown["start"]["sets"] == 1);
    CHECK(start["start"]["seed"] == 42);  // a copy: the log keeps it
    CHECK(!start["start"].contains("seed_text"));
    // The game is over: the result says the seed, also as text, exact above 2^53.
    const json result = {{"result", {{"seed", 18446744073709551557ULL}}}};
    const json said = bg::serve::without_seed(result);
    CHECK(said["result"]["seed"] == result["result"]["seed"]);
    CHECK(said["result"]["seed_text"] == "18446744073709551557");
    CHECK(bg::serve::with_seed_text(
              json{{"start", {{"seed", 9007199254740993ULL}}}})["start"]["seed_text"] ==
          "9007199254740993");
    // Other records are as they were.
    const json peel = {{"decision", {{"type", "peel_accepted"}, {"bunch", 3}}}};
    CHECK(bg::serve::without_seed(peel) == peel);
}

TEST_CASE("serve: a fence in a WebSocket's queue goes after what was queued before it, in order",
          "[serve][websocket]") {
    bg::serve::MessageQueue queue(1024);
    REQUIRE(queue.push_text("P0001AB"));
    queue.push_fence();
    REQUIRE(queue.push_binary("{\"type\":\"start\"}"));
    auto front = queue.front(100);
    CHECK(front.bytes == "P0001AB");
    CHECK_FALSE(front.fence);
    queue.sent(front.bytes.size());
    front = queue.front(100);
    CHECK(front.fence);
    CHECK(front.bytes.empty());
    queue.sent(0);
    front = queue.front(100);
    CHECK(front.binary);
    CHECK(front.bytes == "{\"type\":\"start\"}");
    // Text after a fence is not joined to text before it.
    bg::serve::MessageQueue texts(1024);
    REQUIRE(texts.push_text("a"));
    texts.push_fence();
    REQUIRE(texts.push_text("b"));
    CHECK(texts.front(100).bytes == "a");
    texts.sent(1);
    CHECK(texts.front(100).fence);
}
