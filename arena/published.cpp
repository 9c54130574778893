#include "arena/published.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace bg::arena {

namespace {

std::vector<Published::Stored> stored_of(const sql::Rows& rows) {
    std::vector<Published::Stored> events;
    for (const sql::Row& row : rows)
        events.push_back({{static_cast<std::uint64_t>(row.integer(0)), row.text(1), row.text(2)},
                          static_cast<std::uint64_t>(row.integer(3))});
    return events;
}

}  // namespace

void Published::event(const Stored& stored, const std::string* state) {
    sql::Transaction transaction(db_);
    // One stored already is not again: a retry of one whose commit went unheard.
    db_.execute(
        "INSERT INTO stream_events (id, name, data, after_id) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (id) DO NOTHING",
        {static_cast<std::int64_t>(stored.event.id), stored.event.name, stored.event.data,
         static_cast<std::int64_t>(stored.after)});
    // Now and then the oldest let go, down to the newest events_kept.
    if (++stored_ % 100 == 0)
        db_.execute(
            fmt::format("DELETE FROM stream_events WHERE id < (SELECT MIN(id) FROM "
                        "(SELECT id FROM stream_events ORDER BY id DESC LIMIT {}) AS kept)",
                        events_kept));
    if (state)
        store_state(*state);
    db_.notify(channel);
    transaction.commit();
}

void Published::state(const std::string& json) {
    sql::Transaction transaction(db_);
    store_state(json);
    db_.notify(channel);
    transaction.commit();
}

void Published::store_state(const std::string& json) {
    if (db_.execute(
            fmt::format("UPDATE live_state SET state = ?, at_ms = {} WHERE id = 1", db_.now_ms()),
            {json}) == 0)
        db_.execute(fmt::format("INSERT INTO live_state (id, state, at_ms) VALUES (1, ?, {})",
                                db_.now_ms()),
                    {json});
}

std::vector<Published::Stored> Published::events_after(std::uint64_t id, int most) const {
    return stored_of(db_.query(fmt::format("SELECT id, name, data, after_id FROM stream_events "
                                           "WHERE id > ? ORDER BY id LIMIT {}",
                                           most),
                               {static_cast<std::int64_t>(id)}));
}

std::vector<Published::Stored> Published::newest(int most) const {
    auto events = stored_of(db_.query(fmt::format(
        "SELECT id, name, data, after_id FROM stream_events ORDER BY id DESC LIMIT {}", most)));
    std::reverse(events.begin(), events.end());
    return events;
}

std::optional<Published::State> Published::state() const {
    const sql::Rows rows = db_.query(
        fmt::format("SELECT state, {} - at_ms FROM live_state WHERE id = 1", db_.now_ms()));
    if (rows.empty())
        return std::nullopt;
    return State{rows.at(0).text(0),
                 static_cast<std::uint64_t>(std::max<std::int64_t>(0, rows.at(0).integer(1)))};
}

}  // namespace bg::arena
