#include "arena/tickets.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "arena/door.hpp"
#include "remote/token.hpp"
#include "viewer/pages.hpp"

namespace bg::arena {

std::string Tickets::issue(std::string name, std::string code) {
    const std::uint64_t now = now_ms_();
    std::erase_if(kept_, [now](const auto& kept) { return kept.second.issued + good_ms <= now; });
    if (kept_.size() >= most_kept)
        kept_.erase(std::min_element(kept_.begin(), kept_.end(), [](const auto& a, const auto& b) {
            return a.second.issued < b.second.issued;
        }));
    std::string ticket = remote::draw_token();
    kept_[ticket] = {{std::move(name), std::move(code)}, now};
    return ticket;
}

std::optional<remote::Gate::Ticketed> Tickets::find(std::string_view ticket) const {
    const auto found = kept_.find(ticket);
    if (found == kept_.end() || found->second.issued + good_ms <= now_ms_())
        return std::nullopt;
    return found->second.who;
}

void Tickets::spend(std::string_view ticket) {
    if (const auto found = kept_.find(ticket); found != kept_.end())
        kept_.erase(found);
}

namespace {

serve::Server::Posted refused(const remote::Gate::Refusal& refusal) {
    return {static_cast<unsigned>(refusal.status),
            nlohmann::json{{"refused", refusal.kind},
                           {"why", refusal.why},
                           {"retry_after_s", refusal.retry_after_s}}
                .dump(),
            refusal.retry_after_s};
}

}  // namespace

serve::Server::Posted ticket_answer(const remote::Gate& gate, Tickets& tickets,
                                    const serve::Server::Post& post) {
    const auto asked = nlohmann::json::parse(post.body, nullptr, false);
    const auto text = [&](const char* key) {
        const auto found = asked.is_object() ? asked.find(key) : asked.end();
        return found != asked.end() && found->is_string() ? found->get<std::string>()
                                                          : std::string();
    };
    const auto flag = [&](const char* key) {
        const auto found = asked.is_object() ? asked.find(key) : asked.end();
        return found != asked.end() && found->is_boolean() && found->get<bool>();
    };
    if (!asked.is_object()) {
        const remote::Gate::Refusal bad{400, "the body is a JSON object: {\"name\", \"code\"}", 0,
                                        "bad-ticket-request"};
        gate.refused(bad, post.peer);
        return refused(bad);
    }
    const std::string name = text("name"), code = text("code"), opponent = text("opponent");
    remote::Gate::Knock knock{person_path, post.origin, post.host,      true,
                              {},          {},          post.peer,      name,
                              code,        opponent,    flag("signup"), flag("resume")};
    const auto admitted = gate.admit(knock);
    if (const auto* refusal = std::get_if<remote::Gate::Refusal>(&admitted)) {
        gate.refused(*refusal, post.peer);
        return refused(*refusal);
    }
    return {200,
            nlohmann::json{{"ticket", tickets.issue(name, code)}, {"good_for_ms", Tickets::good_ms}}
                .dump(),
            0};
}

void serve_people(serve::Server::Content& content, bool people_open, const remote::Gate& gate,
                  Tickets& tickets, LoopLag* lag) {
    content.play = [people_open] { return viewer::play_page({{"people_open", people_open}}); };
    content.post = [&gate, &tickets, lag](const serve::Server::Post& post) {
        const LoopLag::Scope scope(lag, "POST /person/ticket");
        return ticket_answer(gate, tickets, post);
    };
    content.post_paths = {std::string(ticket_path)};
}

}  // namespace bg::arena
