// What the arena that holds a database shows to its other nodes (docs/arena.md, "Front
// nodes"): the events of its stream, each under the id its own stream gave it and with the id of
// the one before it, and its live state (arena/live_state.hpp), kept in the store beside its
// matches and notified as each commits. A front node (`arena serve --standby` at an address of
// its own, on PostgreSQL) relays the events under the same ids and answers the API from the
// state, so that a reader's Last-Event-ID goes on from one node to another. Only the newest
// events are kept.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "serve/stream.hpp"
#include "sql/connection.hpp"

namespace bg::arena {

class Published {
  public:
    explicit Published(sql::Connection& db) : db_(db) {}

    // Notified as an event or a new state is stored (arena/wake.hpp).
    static constexpr std::string_view channel = "bg_published";
    // The events kept: the newest so many (a front that starts, or a holder that takes over,
    // reads them for the readers that come back).
    static constexpr int events_kept = 1000;

    // An event as stored: `after` the id of the event before it in its holder's stream (where
    // a reader finds it is not the one it had, events came between that it never had).
    struct Stored {
        serve::Event event;
        std::uint64_t after = 0;
    };
    // The live state as stored, and how long ago, by the database's clock.
    struct State {
        std::string json;
        std::uint64_t age_ms = 0;
    };

    // ---- the holder's part ----
    // An event of its stream, under its id (above every stored one's; one stored already is
    // left as it is), with its live state now where it changed (`state`, or none), in one
    // transaction: a front that reads the event reads the state it came with.
    void event(const Stored& stored, const std::string* state = nullptr);
    // Its live state now (a JSON document): where it changed, and now and then as it is (its
    // age says the holder still holds the database).
    void state(const std::string& json);

    // ---- everyone's ----
    // The events stored after `id`, the oldest first, at most `most` of them.
    std::vector<Stored> events_after(std::uint64_t id, int most = events_kept) const;
    // The newest `most` events stored, the oldest of them first.
    std::vector<Stored> newest(int most = events_kept) const;
    // The live state last stored, or none.
    std::optional<State> state() const;

  private:
    void store_state(const std::string& json);

    sql::Connection& db_;
    int stored_ = 0;  // events stored by this process (those past the kept are let go now and then)
};

}  // namespace bg::arena
