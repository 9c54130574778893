// What passes between the node that holds an arena and its front nodes that seat remote bots
// and people (docs/arena.md, "Front nodes"), kept in the store beside its matches: each front
// as it last said it was there (its cores), and the messages each way, taken (deleted) once by
// their reader in the order they were written (each side reads them every 200 ms). A front's
// message says what happened to a connection of its own (it waits to play, it left, its check is
// over); the holder's, what its core decided of one (check it, it passed or not, no more games, how
// its match went). The matches the holder places at a front are jobs addressed to it
// (arena/jobs.hpp), which it plays and stores as a worker does.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sql/connection.hpp"

namespace bg::arena {

class FrontMail {
  public:
    explicit FrontMail(sql::Connection& db) : db_(db) {}

    struct Message {
        std::string node;  // the front's it came from, or is for
        nlohmann::json body;
    };

    // ---- the front's part ----
    // There now, giving `cores` to the house and hosted players of its matches (0: no limit;
    // -1: it takes no match for now).
    void hello(const std::string& front, int cores);
    void goodbye(const std::string& front);
    // A message to the holder from `front`.
    void to_holder(const std::string& front, const nlohmann::json& body);
    // The holder's messages to `front`, taken, the oldest first.
    std::vector<nlohmann::json> take_for(const std::string& front);

    // ---- the holder's part ----
    // The fronts seen within `within_ms`, each with its cores.
    std::map<std::string, int> seen(std::uint64_t within_ms) const;
    // A message to `front`.
    void to_front(const std::string& front, const nlohmann::json& body);
    // The fronts' messages to the holder, taken, in the order each front wrote its own.
    std::vector<Message> take_for_holder();
    // A holder begins: what was between its predecessor and the fronts is dropped (it asks each
    // front it sees who waits there).
    void begin_holding();

  private:
    sql::Connection& db_;
};

// Messages to be written, each to its reader (a front's name, or "" for the holder), in the
// order they were given; those that cannot be yet (the store away) wait, in order.
class Outbox {
  public:
    using Write = std::function<void(const std::string& to, const nlohmann::json& body)>;
    explicit Outbox(Write write) : write_(std::move(write)) {}
    void push(const std::string& to, nlohmann::json body) {
        waiting_[to].push_back(std::move(body));
    }
    // Written as far as the store lets; false where one could not be (`failed` said why).
    bool flush(std::string* failed = nullptr);
    void drop(const std::string& to) { waiting_.erase(to); }
    bool empty() const;

  private:
    Write write_;
    std::map<std::string, std::deque<nlohmann::json>> waiting_;
};

}  // namespace bg::arena
