#include "arena/door.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg::arena {

namespace {

constexpr std::uint64_t minute_ms = 60'000;

// The limits a minute long: the times in `times` a minute old or more at `now` are forgotten;
// and the seconds until the first of them is.
void forget_older(std::deque<std::uint64_t>& times, std::uint64_t now) {
    while (!times.empty() && times.front() + minute_ms <= now)
        times.pop_front();
}
int seconds_to_wait(const std::deque<std::uint64_t>& times, std::uint64_t now) {
    return static_cast<int>((times.front() + minute_ms - now + 999) / 1000);
}

}  // namespace

remote::Gate::Refusal restarting_refusal() {
    return {503, fmt::format("the arena is restarting: come back in {} s", come_back_s),
            come_back_s, "restarting"};
}

std::optional<Door::Refusal> Door::admit(const Knock& knock) const {
    if (knock.path != person_path && knock.path != bot_path)
        return Refusal{404, "the arena's bots connect to /bot (people to /person)", 0, "path"};
    if (auto over = address_limit(knock))
        return *over;
    if (knock.path == person_path)
        return admit_person(knock);
    if (knock.bearer.empty())
        return Refusal{401, "no token: send it as Authorization: Bearer TOKEN", 0, "no-token"};
    const std::string bearer(knock.bearer);
    const auto bot = store_.bot_by_token(bearer);
    if (!bot || bot->person)
        return guesses_.failed(knock.peer,
                               Refusal{401, "no active bot has this token", 0, "wrong-token"});
    if (bot->command)
        return Refusal{403, fmt::format("{} is a house bot: the arena starts it itself", bot->name),
                       0, "house-token"};
    if (!knock.session)
        return Refusal{400,
                       "an arena's bot stays for match after match: send "
                       "X-Bananagrams-Session: 1 (bananagrams-connect does)",
                       0, "not-a-session"};
    if (!valid_version_label(knock.version))
        return Refusal{400, "X-Bananagrams-Bot-Version: up to 64 printable characters, no spaces",
                       0, "bad-version"};
    if (connections_(bot->id) >= options_.connections_per_bot)
        return Refusal{429,
                       fmt::format("{} has {} connections already, its most: try again once "
                                   "one has closed",
                                   bot->name, options_.connections_per_bot),
                       10, "connections-at-once"};
    if (auto over = minute_limit(*bot))
        return *over;
    if (auto over = day_limit(*bot))
        return *over;
    // A bot that asks for a house bot (opponent=) spars with it: unrated.
    if (auto refused = opponent_refusal(knock.opponent))
        return *refused;
    const std::string digest = token_hash(bearer);
    knocked_[digest] = {std::string(knock.version), std::string(knock.peer),
                        std::string(knock.opponent)};
    guesses_.remember(knock.peer, digest);
    return std::nullopt;
}

std::variant<Bot, Door::Refusal> Door::owner(std::string_view name, std::string_view bearer,
                                             std::string_view peer) const {
    Knock knock{bot_path, "", ""};
    knock.bearer = bearer;
    knock.peer = peer;
    if (auto over = address_limit(knock))
        return *over;
    if (bearer.empty())
        return Refusal{401, "no token: send the bot's as Authorization: Bearer TOKEN", 0,
                       "no-token"};
    const auto bot = store_.bot_by_token(std::string(bearer));
    if (!bot)
        return guesses_.failed(peer,
                               Refusal{401, "no active bot has this token", 0, "wrong-token"});
    if (bot->person || bot->name != name)
        return Refusal{403, fmt::format("this token is not {}'s", name), 0, "another-token"};
    guesses_.remember(peer, token_hash(std::string(bearer)));
    return *bot;
}

std::optional<Door::Refusal> Door::admit_person(const Knock& knock) const {
    const std::string code(knock.code);
    if (knock.signup)
        if (auto refused = sign_up(knock))
            return *refused;
    // Looked up by the code's hash, and the name compared after: one answer for a wrong name
    // and a wrong code, which says nothing of either.
    const auto person = code.empty() ? std::nullopt : store_.bot_by_token(code);
    if (!person || !person->person || person->name != knock.name)
        return guesses_.failed(
            knock.peer, Refusal{401, "no active person has this name and code", 0, "wrong-code"});
    if (!knock.session)
        return Refusal{400, "a person's page stays for the games of a match: session=1", 0,
                       "not-a-session"};
    const std::string opponent(knock.opponent);
    if (auto refused = opponent_refusal(opponent))
        return *refused;
    if (connections_(person->id) >= 1)
        return Refusal{429,
                       fmt::format("{} is playing already, from another page: one match at a "
                                   "time",
                                   person->name),
                       10, "playing-already"};
    if (auto over = minute_limit(*person))
        return *over;
    const std::string digest = token_hash(code);
    knocked_[digest] = {"", std::string(knock.peer), opponent};
    guesses_.remember(knock.peer, digest);
    return std::nullopt;
}

std::optional<Door::Refusal> Door::opponent_refusal(std::string_view opponent) const {
    if (opponent.empty())
        return std::nullopt;
    const auto house = store_.bot(std::string(opponent));
    if (!house || !house->command || house->state != "active" || !house->paused.empty())
        return Refusal{
            400, fmt::format("{} is not a house bot that plays now", escape_for_terminal(opponent)),
            0, "not-a-house-bot"};
    return std::nullopt;
}

std::optional<Door::Refusal> Door::sign_up(const Knock& knock) const {
    if (!options_.people_open)
        return Refusal{403, "people do not sign up here: the arena's organiser makes accounts", 0,
                       "sign-up-closed"};
    const std::string name(knock.name), code(knock.code);
    if (code.empty())
        return Refusal{400, "signing up needs code=, of the page's choosing", 0, "sign-up-no-code"};
    if (const auto there = store_.bot(name)) {
        // Asked again as the connection opens, or a person signing up twice: signed in.
        const auto coded = store_.bot_by_token(code);
        if (there->person && coded && coded->id == there->id)
            return std::nullopt;
        return Refusal{409, fmt::format("the name {} is taken", name), 0, "name-taken"};
    }
    const std::uint64_t now = now_ms_();
    forget_older(signups_, now);
    if (static_cast<int>(signups_.size()) >= options_.signups_a_minute)
        return Refusal{429, "too many people signed up in the last minute: try again soon",
                       seconds_to_wait(signups_, now), "sign-ups-a-minute"};
    try {
        store_.add_person(name, code);
    } catch (const std::invalid_argument& e) {
        return Refusal{400, e.what(), 0, "bad-name"};
    }
    signups_.push_back(now);
    if (on_note)
        on_note(fmt::format("person {} signed up from {}", name, knock.peer));
    return std::nullopt;
}

std::optional<Door::Refusal> Door::address_limit(const Knock& knock) const {
    const std::string_view key = knock.path == person_path ? knock.code : knock.bearer;
    return guesses_.limit(knock.peer, key.empty() ? "" : token_hash(std::string(key)));
}

std::optional<Door::Refusal> Door::minute_limit(const Bot& bot) const {
    const std::uint64_t now = now_ms_();
    auto& arrived = arrivals_[bot.id];
    forget_older(arrived, now);
    if (static_cast<int>(arrived.size()) >= options_.connections_a_minute)
        return Refusal{429,
                       fmt::format("{} has connected {} times in the last minute, its most",
                                   bot.name, options_.connections_a_minute),
                       seconds_to_wait(arrived, now), "connections-a-minute"};
    return std::nullopt;
}

std::optional<Door::Refusal> Door::day_limit(const Bot& bot) const {
    if (options_.matches_a_day <= 0)
        return std::nullopt;
    const auto [played, wait_s] = store_.matches_in_last_day(bot.id);
    if (played < options_.matches_a_day)
        return std::nullopt;
    return Refusal{
        429,
        fmt::format("{} has played {} matches in the last 24 hours, its most", bot.name, played),
        std::max(wait_s, 1), "matches-a-day"};
}

Door::Said Door::said(const std::string& token_digest) const {
    const auto found = knocked_.find(token_digest);
    return found == knocked_.end() ? Said{} : found->second;
}

void Door::arrived(int bot) {
    arrivals_[bot].push_back(now_ms_());
}

void Door::refused(const Refusal& refusal, const std::string& peer) const {
    ++refusals_[refusal.kind.empty() ? std::to_string(refusal.status) : refusal.kind];
    if (on_note)
        on_note(fmt::format("refused a connection from {}: {} ({})", peer, refusal.why,
                            refusal.status));
}

}  // namespace bg::arena
