#include "arena/published.hpp"

#include <fmt/format.h>

namespace bg::arena {

void Published::event(const serve::Event& event) {
    sql::Transaction transaction(db_);
    // One stored already is not again: a retry of one whose commit went unheard.
    db_.execute(
        "INSERT INTO stream_events (id, name, data) VALUES (?, ?, ?) "
        "ON CONFLICT (id) DO NOTHING",
        {static_cast<std::int64_t>(event.id), event.name, event.data});
    // Now and then the oldest let go, down to the newest events_kept.
    if (++stored_ % 100 == 0)
        db_.execute(
            fmt::format("DELETE FROM stream_events WHERE id < (SELECT MIN(id) FROM "
                        "(SELECT id FROM stream_events ORDER BY id DESC LIMIT {}) AS kept)",
                        events_kept));
    db_.notify(channel);
    transaction.commit();
}

void Published::state(const std::string& json) {
    sql::Transaction transaction(db_);
    if (db_.execute(fmt::format("UPDATE live_state SET state = ?, at = {} WHERE id = 1", db_.now()),
                    {json}) == 0)
        db_.execute(
            fmt::format("INSERT INTO live_state (id, state, at) VALUES (1, ?, {})", db_.now()),
            {json});
    db_.notify(channel);
    transaction.commit();
}

std::vector<serve::Event> Published::events_after(std::uint64_t id, int most) const {
    std::vector<serve::Event> events;
    for (const sql::Row& row :
         db_.query(fmt::format(
                       "SELECT id, name, data FROM stream_events WHERE id > ? ORDER BY id LIMIT {}",
                       most),
                   {static_cast<std::int64_t>(id)}))
        events.push_back({static_cast<std::uint64_t>(row.integer(0)), row.text(1), row.text(2)});
    return events;
}

std::uint64_t Published::last_event() const {
    const sql::Rows rows = db_.query("SELECT MAX(id) FROM stream_events");
    return rows.empty() || rows.at(0).null(0) ? 0
                                              : static_cast<std::uint64_t>(rows.at(0).integer(0));
}

std::optional<std::string> Published::state() const {
    const sql::Rows rows = db_.query("SELECT state FROM live_state WHERE id = 1");
    if (rows.empty())
        return std::nullopt;
    return rows.at(0).text(0);
}

}  // namespace bg::arena
