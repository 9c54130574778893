// A store's seasons (docs/arena.md, "Seasons"; arena/core/season.hpp): each as it was added,
// its board frozen at its close with its finalists (each bot's version then), its finals matches
// (ordinary matches of the archive, rated on the ladder as every match is, each marked with its
// season, stage and round), and its final standings once its finals are over. What the finals
// have played is read back in the order it was rated, for the finals' fold
// (arena/core/finals.hpp), so that an arena killed mid-finals goes on where it was.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arena/core/finals.hpp"
#include "arena/core/inputs.hpp"
#include "arena/core/season.hpp"
#include "sql/connection.hpp"

namespace bg::arena {

// The seasons' tables (schema 11: arena/sql_store.hpp), in the dialect of `backend`.
std::string seasons_schema(sql::Backend backend);

// WHEN as a time of the store's: a UTC time (2026-12-24T18:00:00Z, 2026-12-24T18:00Z,
// 2026-12-24 18:00, 2026-12-24), or one after `now` (a store's time): +90s, +30m, +2h, +7d. None
// where it is neither.
std::optional<std::string> season_time(const std::string& when, const std::string& now);

// The rules as the store and the API hold them (the seed as decimal text), and back.
nlohmann::json to_json(const SeasonRules& rules);
SeasonRules rules_from(const nlohmann::json& j);

class Seasons {
  public:
    explicit Seasons(sql::Connection& db) : db_(db) {}

    // A new season, from `starts` ("": now, by the database's clock) to `closes` (both the
    // store's times). Throws std::invalid_argument with a sentence for a name taken or not
    // allowed, a close not after its start, or rules that cannot be played.
    Season add(const std::string& name, const std::string& starts, const std::string& closes,
               const SeasonRules& rules);
    std::vector<Season> all() const;  // the oldest first
    std::optional<Season> find(const std::string& name) const;
    // The time now, by the database's clock (a season closes by it, as matches finish by it).
    std::string now() const;

    // Its board frozen at its close, and its finalists (entries, in the board's order): its
    // finals begin; or, given its standings (fewer than two can play the finals), it is over.
    // Throws std::logic_error for a season not open.
    void close(int season, const nlohmann::json& board, const std::vector<int>& finalists,
               const std::optional<nlohmann::json>& standings = std::nullopt);
    struct Frozen {
        nlohmann::json board;        // as closed (arena/api.hpp's season board)
        std::vector<int> finalists;  // entries
        nlohmann::json standings;    // the final standings, once over; null before
        std::string ended;           // when its finals ended, or ""
    };
    std::optional<Frozen> frozen(int season) const;
    // Its finals over: their standings kept. Throws std::logic_error for a season not in its
    // finals.
    void finish(int season, const nlohmann::json& standings);

    // A finals match begun (in the transaction that begins it: arena/sql_archive's).
    void mark_finals(int match, const FinalsOf& finals);
    // Its finals matches rated after `after` (a rated_order), in the order they were rated,
    // as the finals' fold reads them, each with its rated_order.
    std::vector<std::pair<int, FinalsGame>> finals_rated(int season, int after = 0) const;
    // Every finals match of the season (running, rated or void), with its stage and round.
    struct FinalsMatch {
        int match = 0;
        int stage = 0;
        int round = 0;
        std::string state;
    };
    std::vector<FinalsMatch> finals_matches(int season) const;

  private:
    sql::Connection& db_;
};

}  // namespace bg::arena
