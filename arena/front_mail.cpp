#include "arena/front_mail.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace bg::arena {

namespace {

std::vector<FrontMail::Message> taken(const sql::Rows& rows) {
    // RETURNING gives no order: the ids give it (one writer's messages in the order it wrote).
    std::vector<std::pair<std::int64_t, FrontMail::Message>> all;
    for (const sql::Row& r : rows)
        all.push_back({r.integer(0), {r.text(1), nlohmann::json::parse(r.text(2))}});
    std::sort(all.begin(), all.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<FrontMail::Message> messages;
    for (auto& [id, m] : all)
        messages.push_back(std::move(m));
    return messages;
}

}  // namespace

void FrontMail::hello(const std::string& front, int cores) {
    sql::Transaction transaction(db_);
    if (db_.execute(
            fmt::format("UPDATE fronts SET cores = ?, seen_ms = {} WHERE name = ?", db_.now_ms()),
            {std::int64_t{cores}, front}) == 0)
        db_.execute(fmt::format("INSERT INTO fronts (name, cores, started, seen_ms) VALUES (?, ?, "
                                "{}, {})",
                                db_.now(), db_.now_ms()),
                    {front, std::int64_t{cores}});
    transaction.commit();
}

void FrontMail::goodbye(const std::string& front) {
    db_.execute("DELETE FROM fronts WHERE name = ?", {front});
}

void FrontMail::to_holder(const std::string& front, const nlohmann::json& body) {
    db_.execute("INSERT INTO front_mail (node, to_holder, body) VALUES (?, 1, ?)",
                {front, body.dump()});
}

std::vector<nlohmann::json> FrontMail::take_for(const std::string& front) {
    std::vector<nlohmann::json> bodies;
    for (Message& m : taken(db_.query("DELETE FROM front_mail WHERE to_holder = 0 AND node = ? "
                                      "RETURNING id, node, body",
                                      {front})))
        bodies.push_back(std::move(m.body));
    return bodies;
}

std::map<std::string, int> FrontMail::seen(std::uint64_t within_ms) const {
    std::map<std::string, int> fronts;
    for (const sql::Row& r : db_.query(
             fmt::format("SELECT name, cores FROM fronts WHERE seen_ms >= {} - ?", db_.now_ms()),
             {static_cast<std::int64_t>(within_ms)}))
        fronts[r.text(0)] = r.number(1);
    return fronts;
}

void FrontMail::to_front(const std::string& front, const nlohmann::json& body) {
    db_.execute("INSERT INTO front_mail (node, to_holder, body) VALUES (?, 0, ?)",
                {front, body.dump()});
}

std::vector<FrontMail::Message> FrontMail::take_for_holder() {
    return taken(db_.query("DELETE FROM front_mail WHERE to_holder = 1 RETURNING id, node, body"));
}

void FrontMail::begin_holding() {
    db_.execute("DELETE FROM front_mail");
}

bool Outbox::flush(std::string* failed) {
    for (auto& [to, bodies] : waiting_) {
        try {
            for (; !bodies.empty(); bodies.pop_front())
                write_(to, bodies.front());
        } catch (const std::exception& e) {
            if (failed)
                *failed = e.what();
            return false;
        }
    }
    return true;
}

bool Outbox::empty() const {
    return std::all_of(waiting_.begin(), waiting_.end(),
                       [](const auto& to) { return to.second.empty(); });
}

}  // namespace bg::arena
