#include "arena/sql_rows.hpp"

#include <ctime>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bg::arena::rows {

const char* const bot_columns =
    "id, name, owner, command, anchor, state, paused, created, person, paused_at, about";
const char* const entry_columns =
    "id, bot_id, label, mu, sigma, matches, created, checked, check_failed";
const char* const match_columns = "id, seed, state, started, finished, rated_order, why";
const char* const game_columns = "rotation, log, result, counts";
const char* const rated_columns =
    "entry_id, seat, rank, mu_before, sigma_before, mu_after, sigma_after";

Bot bot_from(const sql::Row& r) {
    Bot b;
    b.id = r.number(0);
    b.name = r.text(1);
    b.owner = r.text(2);
    if (!r.null(3))
        b.command = r.text(3);
    if (!r.null(4))
        b.anchor = r.real(4);
    b.state = r.text(5);
    b.paused = r.text_or(6);
    b.created = r.text(7);
    b.person = r.integer(8) != 0;
    b.paused_at = r.text_or(9);
    b.about = r.text_or(10);
    return b;
}

Entry entry_from(const sql::Row& r) {
    return {r.number(0), r.number(1), r.text(2),    {r.real(3), r.real(4)},
            r.number(5), r.text(6),   r.text_or(7), r.text_or(8)};
}

Match match_from(const sql::Row& r) {
    Match m;
    m.id = r.number(0);
    m.seed = std::stoull(r.text(1));
    m.state = r.text(2);
    m.started = r.text(3);
    m.finished = r.text_or(4);
    if (!r.null(5))
        m.rated_order = r.number(5);
    m.why = r.text_or(6);
    return m;
}

Rated rated_from(const sql::Row& r, std::size_t at) {
    return {r.number(at),
            r.number(at + 1),
            r.number(at + 2),
            {r.real(at + 3), r.real(at + 4)},
            {r.real(at + 5), r.real(at + 6)}};
}

std::string counts_text(const GameResult& result) {
    nlohmann::json seats = nlohmann::json::array();
    for (const PlayerResult& p : result.players)
        seats.push_back(p.counts ? nlohmann::json{{"stale", p.counts->stale},
                                                  {"timed", p.counts->timed},
                                                  {"think_ms", p.counts->think_ms}}
                                 : nlohmann::json(nullptr));
    return seats.dump();
}

StoredGame game_from(const sql::Row& r, std::size_t at) {
    StoredGame g;
    g.rotation = r.number(at);
    g.log = r.text_or(at + 1);
    auto read = result_from_json(nlohmann::json::parse(r.text(at + 2)));
    if (auto* result = std::get_if<GameResult>(&read))
        g.result = std::move(*result);
    if (!r.null(at + 3))
        read_counts(g.result, r.text(at + 3));
    return g;
}

void read_counts(GameResult& result, const std::string& counts) {
    const auto seats = nlohmann::json::parse(counts);
    for (std::size_t i = 0; i < seats.size() && i < result.players.size(); ++i)
        if (seats[i].is_object())
            result.players[i].counts =
                PeelCounts{seats[i].at("stale").get<int>(), seats[i].at("timed").get<int>(),
                           seats[i].at("think_ms").get<double>()};
}

std::string now_text(sql::Connection& db) {
    return db.query(fmt::format("SELECT {}", db.now())).at(0).text(0);
}

std::int64_t ms_of(const std::string& time) {
    std::tm t{};
    int ms = 0;
    if (std::sscanf(time.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &t.tm_year, &t.tm_mon, &t.tm_mday,
                    &t.tm_hour, &t.tm_min, &t.tm_sec, &ms) < 6)
        throw sql::Error(fmt::format("'{}' is not a time as the store writes it", time));
    t.tm_year -= 1900;
    t.tm_mon -= 1;
    return static_cast<std::int64_t>(::timegm(&t)) * 1000 + ms;
}

std::string time_of(std::int64_t ms) {
    const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z", fmt::gmtime(seconds), ms % 1000);
}

std::pair<int, int> in_last_day(sql::Connection& db, const std::string& counted,
                                std::vector<sql::Value> parameters) {
    const std::int64_t now = ms_of(now_text(db));
    parameters.emplace_back(time_of(now - day_ms));
    const sql::Row r = db.query(counted, parameters).at(0);
    const int n = r.number(0);
    if (n == 0 || r.null(1))
        return {0, 0};
    // Rounded up: at that many seconds from now the first is past a day old.
    const std::int64_t left = ms_of(r.text(1)) + day_ms - now;
    return {n, static_cast<int>(left / 1000) + 1};
}

sql::Value text_or_null(const std::string& text) {
    return text.empty() ? sql::Value(nullptr) : sql::Value(text);
}

}  // namespace bg::arena::rows
