#include "arena/sqlite_rows.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bg::arena::rows {

const char* const match_columns = "id, seed, state, started, finished, rated_order, why";
const char* const now_sql = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

Bot bot_from(SQLite::Statement& q) {
    Bot b;
    b.id = q.getColumn("id").getInt();
    b.name = q.getColumn("name").getString();
    b.owner = q.getColumn("owner").getString();
    if (!q.getColumn("command").isNull())
        b.command = q.getColumn("command").getString();
    if (!q.getColumn("anchor").isNull())
        b.anchor = q.getColumn("anchor").getDouble();
    b.state = q.getColumn("state").getString();
    b.paused = q.getColumn("paused").isNull() ? "" : q.getColumn("paused").getString();
    b.created = q.getColumn("created").getString();
    b.person = q.getColumn("person").getInt() != 0;
    b.paused_at = q.getColumn("paused_at").isNull() ? "" : q.getColumn("paused_at").getString();
    b.about = q.getColumn("about").isNull() ? "" : q.getColumn("about").getString();
    return b;
}

Entry entry_from(SQLite::Statement& q) {
    return {q.getColumn("id").getInt(),
            q.getColumn("bot_id").getInt(),
            q.getColumn("label").getString(),
            {q.getColumn("mu").getDouble(), q.getColumn("sigma").getDouble()},
            q.getColumn("matches").getInt(),
            q.getColumn("created").getString(),
            q.getColumn("checked").isNull() ? "" : q.getColumn("checked").getString(),
            q.getColumn("check_failed").isNull() ? "" : q.getColumn("check_failed").getString()};
}

const char* const bot_columns =
    "id, name, owner, command, anchor, state, paused, created, person, paused_at, about";
const char* const entry_columns =
    "id, bot_id, label, mu, sigma, matches, created, checked, check_failed";

std::string counts_text(const GameResult& result) {
    nlohmann::json seats = nlohmann::json::array();
    for (const PlayerResult& p : result.players)
        seats.push_back(p.counts ? nlohmann::json{{"stale", p.counts->stale},
                                                  {"timed", p.counts->timed},
                                                  {"think_ms", p.counts->think_ms}}
                                 : nlohmann::json(nullptr));
    return seats.dump();
}

StoredGame game_from(SQLite::Statement& q) {
    StoredGame g;
    g.rotation = q.getColumn("rotation").getInt();
    g.log = q.getColumn("log").isNull() ? "" : q.getColumn("log").getString();
    auto read = result_from_json(nlohmann::json::parse(q.getColumn("result").getString()));
    if (auto* result = std::get_if<GameResult>(&read))
        g.result = std::move(*result);
    if (q.getColumn("counts").isNull())
        return g;
    const auto seats = nlohmann::json::parse(q.getColumn("counts").getString());
    for (std::size_t i = 0; i < seats.size() && i < g.result.players.size(); ++i)
        if (seats[i].is_object())
            g.result.players[i].counts =
                PeelCounts{seats[i].at("stale").get<int>(), seats[i].at("timed").get<int>(),
                           seats[i].at("think_ms").get<double>()};
    return g;
}

std::string now_text(SQLite::Database& db) {
    return db.execAndGet(fmt::format("SELECT {}", now_sql)).getString();
}

Rated rated_from(SQLite::Statement& q, int at) {
    return {q.getColumn(at).getInt(),
            q.getColumn(at + 1).getInt(),
            q.getColumn(at + 2).getInt(),
            {q.getColumn(at + 3).getDouble(), q.getColumn(at + 4).getDouble()},
            {q.getColumn(at + 5).getDouble(), q.getColumn(at + 6).getDouble()}};
}

Match match_from(SQLite::Statement& q) {
    Match m;
    m.id = q.getColumn("id").getInt();
    m.seed = std::stoull(q.getColumn("seed").getString());
    m.state = q.getColumn("state").getString();
    m.started = q.getColumn("started").getString();
    m.finished = q.getColumn("finished").isNull() ? "" : q.getColumn("finished").getString();
    if (!q.getColumn("rated_order").isNull())
        m.rated_order = q.getColumn("rated_order").getInt();
    m.why = q.getColumn("why").isNull() ? "" : q.getColumn("why").getString();
    return m;
}

}  // namespace bg::arena::rows
