#include "arena/jobs.hpp"

#include <fmt/format.h>

#include "arena/sql_rows.hpp"
#include "record/result.hpp"

namespace bg::arena {

nlohmann::json to_json(const JobPlan& plan) {
    nlohmann::json entrants = nlohmann::json::array();
    for (const JobEntrant& e : plan.entrants) {
        nlohmann::json entrant = {{"bot", e.bot},     {"name", e.name},       {"entry", e.entry},
                                  {"label", e.label}, {"command", e.command}, {"sha256", e.sha256},
                                  {"mu", e.mu},       {"sigma", e.sigma}};
        if (e.connection)
            entrant["connection"] = std::to_string(e.connection);
        entrants.push_back(std::move(entrant));
    }
    return {{"match", plan.match},
            {"seed", std::to_string(plan.seed)},
            {"game", plan.game},
            {"entrants", std::move(entrants)}};
}

JobPlan plan_from(const nlohmann::json& j) {
    JobPlan plan;
    plan.match = j.at("match").get<int>();
    plan.seed = std::stoull(j.at("seed").get<std::string>());
    plan.game = j.at("game");
    for (const auto& e : j.at("entrants")) {
        JobEntrant entrant{e.at("bot").get<int>(),
                           e.at("name").get<std::string>(),
                           e.at("entry").get<int>(),
                           e.at("label").get<std::string>(),
                           e.at("command").get<std::string>(),
                           e.at("sha256").get<std::string>()};
        if (e.contains("connection"))
            entrant.connection = std::stoull(e.at("connection").get<std::string>());
        entrant.mu = e.value("mu", 0.0);
        entrant.sigma = e.value("sigma", 0.0);
        plan.entrants.push_back(std::move(entrant));
    }
    return plan;
}

nlohmann::json to_json(const JobResult& result) {
    nlohmann::json games = nlohmann::json::array();
    for (const StoredGame& g : result.games)
        games.push_back({{"rotation", g.rotation},
                         {"log", g.log},
                         {"result", to_json(g.result)},
                         {"counts", rows::counts_text(g.result)}});
    return {{"complete", result.complete},
            {"why", result.why},
            {"games", std::move(games)},
            {"stalled_ms", result.stalled_ms}};
}

JobResult result_from(const nlohmann::json& j) {
    JobResult result;
    result.complete = j.at("complete").get<bool>();
    result.why = j.at("why").get<std::string>();
    result.stalled_ms = j.value("stalled_ms", std::vector<std::uint64_t>{});
    for (const auto& g : j.at("games")) {
        StoredGame game;
        game.rotation = g.at("rotation").get<int>();
        game.log = g.at("log").get<std::string>();
        auto read = result_from_json(g.at("result"));
        if (auto* why = std::get_if<std::string>(&read))
            throw std::runtime_error("a worker's game result cannot be read: " + *why);
        game.result = std::move(std::get<GameResult>(read));
        rows::read_counts(game.result, g.at("counts").get<std::string>());
        result.games.push_back(std::move(game));
    }
    return result;
}

// ---- the arena's part ----

void Jobs::queue(const JobPlan& plan, const std::string& words, int players,
                 const std::string& node) {
    sql::Transaction transaction(db_);
    db_.execute(
        "INSERT INTO jobs (match_id, plan, words, players, state, node) VALUES (?, ?, ?, ?, "
        "'queued', ?)",
        {std::int64_t{plan.match}, to_json(plan).dump(), words, std::int64_t{players},
         node.empty() ? sql::Value{nullptr} : sql::Value{node}});
    db_.notify(queued_channel);
    transaction.commit();
}

std::vector<Jobs::Played> Jobs::played() const {
    std::vector<Played> all;
    for (const sql::Row& r :
         db_.query("SELECT j.match_id, j.worker, j.result FROM jobs j JOIN matches m ON m.id = "
                   "j.match_id WHERE j.state = 'played' AND m.state = 'running' ORDER BY "
                   "j.finish_order")) {
        Played p{r.number(0), r.text_or(1), {}, ""};
        try {
            p.result = result_from(nlohmann::json::parse(r.text(2)));
        } catch (const std::exception& e) {
            p.unreadable = e.what();
        }
        all.push_back(std::move(p));
    }
    return all;
}

std::vector<std::pair<int, std::string>> Jobs::expired() {
    std::vector<std::pair<int, std::string>> all;
    for (const sql::Row& r : db_.query(fmt::format("UPDATE jobs SET state = 'void' WHERE state "
                                                   "= 'claimed' AND lease_ms < {} RETURNING "
                                                   "match_id, worker",
                                                   db_.now_ms())))
        all.emplace_back(r.number(0), r.text_or(1));
    return all;
}

void Jobs::cancel(int match) {
    db_.execute(
        "UPDATE jobs SET state = 'void' WHERE match_id = ? AND state IN ('queued', "
        "'claimed')",
        {std::int64_t{match}});
}

std::vector<int> Jobs::queued() const {
    std::vector<int> all;
    for (const sql::Row& r :
         db_.query("SELECT match_id FROM jobs WHERE state = 'queued' ORDER BY match_id"))
        all.push_back(r.number(0));
    return all;
}

input::Workers Jobs::seen(std::uint64_t within_ms, const std::string& words) const {
    const sql::Row r =
        db_.query(fmt::format("SELECT COALESCE(SUM(cores), 0), COALESCE(MAX(cores), 0) FROM "
                              "workers WHERE seen_ms >= {} - ? AND words = ?",
                              db_.now_ms()),
                  {static_cast<std::int64_t>(within_ms), words})
            .at(0);
    return {r.number(0), r.number(1)};
}

void Jobs::keep_archive(const std::string& sha256, std::string_view bytes) {
    // Once: a second submission of the same archive (at once, too) keeps the first.
    db_.execute(
        "INSERT INTO archives (sha256, bytes) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING",
        {sha256, sql::Blob(bytes.begin(), bytes.end())});
}

bool Jobs::has_archive(const std::string& sha256) const {
    return !db_.query("SELECT 1 FROM archives WHERE sha256 = ?", {sha256}).empty();
}

// ---- a worker's part ----

void Jobs::hello(const std::string& worker, const std::string& host, int cores,
                 const std::string& words) {
    sql::Transaction transaction(db_);
    if (db_.execute(fmt::format("UPDATE workers SET host = ?, cores = ?, words = ?, seen_ms = {} "
                                "WHERE name = ?",
                                db_.now_ms()),
                    {host, std::int64_t{cores}, words, worker}) == 0)
        db_.execute(fmt::format("INSERT INTO workers (name, host, cores, words, started, seen_ms) "
                                "VALUES (?, ?, ?, ?, {}, {})",
                                db_.now(), db_.now_ms()),
                    {worker, host, std::int64_t{cores}, words});
    transaction.commit();
}

void Jobs::goodbye(const std::string& worker) {
    db_.execute("DELETE FROM workers WHERE name = ?", {worker});
}

std::optional<JobPlan> Jobs::claim(const std::string& worker, const std::string& words,
                                   int free_cores, std::uint64_t lease_ms,
                                   const std::string& node) {
    const bool postgresql = db_.backend() == sql::Backend::postgresql;
    // A front's: whatever its word list (it refuses a match of another's, which is then void,
    // rather than leave it queued).
    std::vector<sql::Value> values{worker, static_cast<std::int64_t>(lease_ms)};
    if (node.empty()) {
        values.push_back(words);
        values.push_back(std::int64_t{free_cores});
    } else {
        values.push_back(node);
    }
    const sql::Rows rows = db_.query(
        fmt::format("UPDATE jobs SET state = 'claimed', worker = ?, lease_ms = {0} + ?, claimed "
                    "= {1} WHERE match_id = (SELECT match_id FROM jobs WHERE state = 'queued' "
                    "AND {3} ORDER BY match_id LIMIT 1{2}) AND state = "
                    "'queued' RETURNING plan",
                    db_.now_ms(), db_.now(), postgresql ? " FOR UPDATE SKIP LOCKED" : "",
                    node.empty() ? "node IS NULL AND words = ? AND players <= ?" : "node = ?"),
        values);
    if (rows.empty())
        return std::nullopt;
    return plan_from(nlohmann::json::parse(rows.at(0).text(0)));
}

bool Jobs::renew(int match, const std::string& worker, std::uint64_t lease_ms) {
    return db_.execute(fmt::format("UPDATE jobs SET lease_ms = {0} + ? WHERE match_id = ? AND "
                                   "worker = ? AND state = 'claimed' AND lease_ms >= {0}",
                                   db_.now_ms()),
                       {static_cast<std::int64_t>(lease_ms), std::int64_t{match}, worker}) == 1;
}

bool Jobs::finish(int match, const std::string& worker, const JobResult& result,
                  const std::vector<std::pair<int, std::string>>& logs_gz,
                  const std::vector<SeatStderr>& stderr_gz) {
    const bool postgresql = db_.backend() == sql::Backend::postgresql;
    sql::Transaction transaction(db_);
    const std::string order = postgresql ? "nextval('jobs_finished')"
                                         : "(SELECT COALESCE(MAX(finish_order), 0) + 1 FROM jobs)";
    if (db_.execute(fmt::format("UPDATE jobs SET state = 'played', result = ?, finish_order = "
                                "{}, finished = {} WHERE match_id = ? AND worker = ? AND state = "
                                "'claimed' AND lease_ms >= {}",
                                order, db_.now(), db_.now_ms()),
                    {to_json(result).dump(), std::int64_t{match}, worker}) != 1)
        return false;
    for (const auto& [rotation, gz] : logs_gz)
        db_.execute("INSERT INTO job_logs (match_id, rotation, log_gz) VALUES (?, ?, ?)",
                    {std::int64_t{match}, std::int64_t{rotation}, sql::Blob(gz.begin(), gz.end())});
    for (const SeatStderr& s : stderr_gz)
        db_.execute(
            "INSERT INTO game_stderr (match_id, rotation, seat, text_gz) VALUES (?, ?, ?, ?)",
            {std::int64_t{match}, std::int64_t{s.rotation}, std::int64_t{s.seat},
             sql::Blob(s.gz.begin(), s.gz.end())});
    db_.notify(played_channel);
    transaction.commit();
    return true;
}

std::optional<std::string> Jobs::archive(const std::string& sha256) const {
    const sql::Rows rows = db_.query("SELECT bytes FROM archives WHERE sha256 = ?", {sha256});
    if (rows.empty())
        return std::nullopt;
    const sql::Blob& bytes = rows.at(0).blob(0);
    return std::string(bytes.begin(), bytes.end());
}

}  // namespace bg::arena
