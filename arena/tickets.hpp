// A person's page signs in without its code in any URL (docs/arena.md, "People"): it
// POSTs the name and code to /person/ticket, which checks them as the connection itself would be
// checked (every refusal answered there with its own kind and sentence, which a refused
// WebSocket handshake cannot show a page), and answers with a ticket; the page then connects to
// /person with ticket= in place of name= and code=. A ticket is a fresh random token, good for
// one connection within `good_ms`, and is kept in memory only: a URL that a browser's console,
// a proxy or a log keeps holds nothing that signs anyone in later.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "remote/gate.hpp"
#include "serve/server.hpp"
#include "transport/loop_lag.hpp"

namespace bg::arena {

inline constexpr std::string_view ticket_path = "/person/ticket";

class Tickets {
  public:
    static constexpr std::uint64_t good_ms = 30'000;
    static constexpr std::size_t most_kept = 4096;  // past it, the oldest goes

    explicit Tickets(std::function<std::uint64_t()> now_ms) : now_ms_(std::move(now_ms)) {}
    // A new ticket for `name` and `code`.
    std::string issue(std::string name, std::string code);
    // Who a ticket stands for, while it is good and not spent.
    std::optional<remote::Gate::Ticketed> find(std::string_view ticket) const;
    void spend(std::string_view ticket);
    std::size_t kept() const { return kept_.size(); }

  private:
    struct Kept {
        remote::Gate::Ticketed who;
        std::uint64_t issued = 0;
    };
    std::function<std::uint64_t()> now_ms_;
    std::map<std::string, Kept, std::less<>> kept_;
};

// The answer to POST /person/ticket: the JSON body {"name", "code", "opponent", "signup",
// "resume"} (as /person's query has them) asked of `gate` as a person's connection from the
// post's address; a ticket from `tickets` where it would be let in, else the refusal (its
// status, kind, sentence and the seconds to wait), counted and noted as the gate's refusals are.
serve::Server::Posted ticket_answer(const remote::Gate& gate, Tickets& tickets,
                                    const serve::Server::Post& post);
// What a server serves people: their page (GET /play; `people_open`: they may sign up there)
// and its tickets (POST /person/ticket, answered by ticket_answer, the time it takes told to
// `lag`).
void serve_people(serve::Server::Content& content, bool people_open, const remote::Gate& gate,
                  Tickets& tickets, LoopLag* lag);

}  // namespace bg::arena
