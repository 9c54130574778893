#include "arena/store.hpp"

#include <algorithm>

#include "arena/sql_store.hpp"
#include "remote/token.hpp"
#include "sql/postgres_connection.hpp"

namespace bg::arena {

std::variant<std::unique_ptr<Store>, std::string> Store::open(const std::string& where, bool create,
                                                              const stats::WengLin& model) {
    if (sql::is_postgresql(where))
        return SqlStore::open_postgresql(where, create, model);
    return SqlStore::open_sqlite(where, create, model);
}

Roster read_roster(const Store& store) {
    return Roster(store.model(), store.bots(true), store.entries(), store.rated_in_order());
}

nlohmann::json to_json(const stats::WengLin& m) {
    return {{"model", "weng-lin-plackett-luce"},
            {"mu", m.mu},
            {"sigma", m.sigma},
            {"beta", m.beta},
            {"kappa", m.kappa},
            {"tau", m.tau}};
}

nlohmann::json to_json(const MatchmakerConfig& c) {
    return {{"max_players", c.max_players},
            {"max_wait_ms", c.max_wait_ms},
            {"randomness", c.randomness},
            {"repeat_penalty", c.repeat_penalty},
            {"window", c.window}};
}

bool one_line(std::string_view text) {
    return std::none_of(text.begin(), text.end(),
                        [](char c) { return static_cast<unsigned char>(c) < ' ' || c == 127; });
}

bool valid_version_label(std::string_view label) {
    return label.size() <= 64 &&
           std::all_of(label.begin(), label.end(), [](char c) { return c > ' ' && c < 127; });
}

bool valid_about(const std::string& about) {
    return about.size() <= 80 && one_line(about);
}

std::string token_hash(const std::string& token) {
    return remote::token_digest(token);
}

}  // namespace bg::arena
