#include "arena/lobby.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"

namespace bg::arena {

namespace {

constexpr std::string_view bot_path = "/bot";
constexpr std::string_view person_path = "/person";

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

bool valid_version(std::string_view version) {
    return version.size() <= 64 &&
           std::all_of(version.begin(), version.end(), [](char c) { return c > ' ' && c < 127; });
}

}  // namespace

std::variant<remote::RemoteSeat*, remote::Gate::Wait, remote::Gate::Refusal> Lobby::admit(
    const Knock& knock) const {
    if (closing_)
        return Refusal{410, "the arena is closing", 0, "closing"};
    if (knock.path != person_path && knock.path != bot_path)
        return Refusal{404, "the arena's bots connect to /bot (people to /person)", 0, "path"};
    if (auto over = address_limit(knock.peer))
        return *over;
    if (knock.path == person_path)
        return admit_person(knock);
    if (knock.bearer.empty())
        return Refusal{401, "no token: send it as Authorization: Bearer TOKEN", 0, "no-token"};
    const std::string bearer(knock.bearer);
    const auto bot = store_.bot_by_token(bearer);
    if (!bot || bot->person)
        return failed(knock.peer, Refusal{401, "no active bot has this token", 0, "wrong-token"});
    if (bot->command)
        return Refusal{403, fmt::format("{} is a house bot: the arena starts it itself", bot->name),
                       0, "house-token"};
    if (!knock.session)
        return Refusal{400,
                       "an arena's bot stays for match after match: send "
                       "X-Bananagrams-Session: 1 (bananagrams-connect does)",
                       0, "not-a-session"};
    if (!valid_version(knock.version))
        return Refusal{400, "X-Bananagrams-Bot-Version: up to 64 printable characters, no spaces",
                       0, "bad-version"};
    if (connections(bot->id) >= options_.connections_per_bot)
        return Refusal{429,
                       fmt::format("{} has {} connections already, its most: try again once "
                                   "one has closed",
                                   bot->name, options_.connections_per_bot),
                       10, "connections-at-once"};
    if (auto over = minute_limit(*bot))
        return *over;
    if (auto over = day_limit(*bot))
        return *over;
    knocked_[token_hash(bearer)] = {std::string(knock.version), std::string(knock.peer), ""};
    return Wait{};
}

std::variant<remote::RemoteSeat*, remote::Gate::Wait, remote::Gate::Refusal> Lobby::admit_person(
    const Knock& knock) const {
    const std::string code(knock.code);
    if (knock.signup)
        if (auto refused = sign_up(knock))
            return *refused;
    // Looked up by the code's hash, and the name compared after: one answer for a wrong name
    // and a wrong code, which says nothing of either.
    const auto person = code.empty() ? std::nullopt : store_.bot_by_token(code);
    if (!person || !person->person || person->name != knock.name)
        return failed(knock.peer,
                      Refusal{401, "no active person has this name and code", 0, "wrong-code"});
    if (!knock.session)
        return Refusal{400, "a person's page stays for the games of a match: session=1", 0,
                       "not-a-session"};
    const std::string opponent(knock.opponent);
    if (!opponent.empty()) {
        const auto house = store_.bot(opponent);
        if (!house || !house->command || house->state != "active" || !house->paused.empty())
            return Refusal{
                400,
                fmt::format("{} is not a house bot that plays now", escape_for_terminal(opponent)),
                0, "not-a-house-bot"};
    }
    if (connections(person->id) >= 1)
        return Refusal{429,
                       fmt::format("{} is playing already, from another page: one match at a "
                                   "time",
                                   person->name),
                       10, "playing-already"};
    if (auto over = minute_limit(*person))
        return *over;
    knocked_[token_hash(code)] = {"", std::string(knock.peer), opponent};
    return Wait{};
}

std::optional<remote::Gate::Refusal> Lobby::sign_up(const Knock& knock) const {
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

// Refused before anything of the connection is looked up: its address sent too many wrong
// tokens or codes in the last minute. Addresses whose failures are all older are forgotten.
std::optional<remote::Gate::Refusal> Lobby::address_limit(std::string_view peer) const {
    const std::uint64_t now = now_ms_();
    const auto found = failures_.find(peer);
    if (found == failures_.end())
        return std::nullopt;
    auto& times = found->second;
    forget_older(times, now);
    if (times.empty()) {
        failures_.erase(found);
        return std::nullopt;
    }
    if (static_cast<int>(times.size()) < options_.failures_a_minute)
        return std::nullopt;
    return Refusal{429,
                   fmt::format("{} wrong tokens or codes from this address in the last minute: "
                               "try again later",
                               times.size()),
                   seconds_to_wait(times, now), "address-failures"};
}

// A wrong token or code, counted against its address. The addresses kept are bounded: past
// `addresses_kept`, those with no failure in the last minute are forgotten, and then, if need
// be, one with failures (a memory an attacker with more addresses than that cannot grow).
remote::Gate::Refusal Lobby::failed(std::string_view peer, Refusal refusal) const {
    constexpr std::size_t addresses_kept = 10'000;
    const std::uint64_t now = now_ms_();
    if (failures_.size() >= addresses_kept && !failures_.count(peer)) {
        std::erase_if(failures_, [now](const auto& kept) {
            return kept.second.empty() || kept.second.back() + minute_ms <= now;
        });
        if (failures_.size() >= addresses_kept)
            failures_.erase(failures_.begin());
    }
    auto& times = failures_[std::string(peer)];
    times.push_back(now);
    while (static_cast<int>(times.size()) > options_.failures_a_minute)
        times.pop_front();
    return refusal;
}

std::optional<remote::Gate::Refusal> Lobby::minute_limit(const Bot& bot) const {
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

std::optional<remote::Gate::Refusal> Lobby::day_limit(const Bot& bot) const {
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

int Lobby::games_after(std::string_view, const remote::RemoteSeat*) const {
    // A standing arena has games after every one, until it closes.
    return closing_ ? 0 : 1;
}

void Lobby::wait(std::string token, Sitter& sitter) {
    const auto found = open_.find(&sitter);
    if (found != open_.end() && !found->second.seat_token.empty() &&
        found->second.bearer_hash == token_hash(token) && --found->second.games_left > 0) {
        // Between two games of its match (one has just ended for it): the next seat made for
        // it comes from the desk.
        desk_.wait(found->second.seat_token, sitter);
        return;
    }
    if (closing_) {
        told(sitter);
        return;
    }
    if (const auto checked = checked_.find(&sitter); checked != checked_.end()) {
        const auto [passed, why] = checked->second;
        checked_.erase(checked);
        if (!passed)
            return told(sitter, why);
    }
    if (found == open_.end()) {
        if (Open* open = arrive(token, sitter))
            waits(*open);
        return;
    }
    Open& open = found->second;
    if (open.waiting)
        return;
    // Back from its match or check: its account and entry as they are now; a person's match
    // is over (the page says how it went, and plays again by coming again).
    const auto bot = store_.bot_by_token(token);
    if (!bot || day_limit(*bot) || bot->person) {
        told(sitter);
        return;
    }
    open.arrival.bot = *bot;
    open.arrival.entry = store_.entry(*bot, open.arrival.entry.label);
    waits(open);
}

Lobby::Open* Lobby::arrive(const std::string& token, Sitter& sitter) {
    const std::string hash = token_hash(token);
    const auto bot = store_.bot_by_token(token);
    if (!bot || day_limit(*bot)) {
        // Disabled or removed since it knocked, or its day's matches played.
        sitter.no_more_games();
        return nullptr;
    }
    const auto said_at = knocked_.find(hash);
    const Said said = said_at == knocked_.end() ? Said{} : said_at->second;
    Open& open = open_[&sitter];
    open.connection = next_connection_++;
    open.arrival = {open.connection, *bot, store_.entry(*bot, said.version), said.opponent};
    open.peer = said.peer;
    open.bearer_hash = hash;
    sitters_[open.connection] = &sitter;
    const int before = connections(bot->id);
    arrivals_[bot->id].push_back(now_ms_());
    if (!on_note)
        return &open;
    if (bot->person)
        on_note(fmt::format("person {} came from {}, to play {}", bot->name, said.peer,
                            said.opponent.empty() ? "whoever is waiting" : said.opponent));
    else
        on_note(fmt::format(
            "bot {} connected from {}{} ({} connection{})", bot->name, said.peer,
            said.version.empty() ? "" : " as version " + escape_for_terminal(said.version),
            before + 1, before == 0 ? "" : "s"));
    return &open;
}

void Lobby::waits(Open& open) {
    open.waiting = true;
    open.seat_token.clear();
    open.games_left = 0;
    counts(open, true);
    if (on_arrive)
        on_arrive(open.arrival);
}

// Whether the connection counts against its account's connections at once: while it waits to
// play, or is in a match or a check; not once it has been told to go.
void Lobby::counts(Open& open, bool counted) {
    if (open.counted == counted)
        return;
    open.counted = counted;
    if (counted)
        ++per_bot_[open.arrival.bot.id];
    else if (--per_bot_[open.arrival.bot.id] <= 0)
        per_bot_.erase(open.arrival.bot.id);
}

// Told there are no more games for it, or sent away with `why`.
void Lobby::told(Sitter& sitter, const std::string& why) {
    if (const auto found = open_.find(&sitter); found != open_.end()) {
        found->second.waiting = false;
        counts(found->second, false);
    }
    if (why.empty())
        sitter.no_more_games();
    else
        sitter.sent_away(why);
}

void Lobby::stop_waiting(Sitter& sitter) {
    desk_.stop_waiting(sitter);
    checked_.erase(&sitter);
    const auto found = open_.find(&sitter);
    if (found == open_.end())
        return;
    Open& open = found->second;
    if (!open.seat_token.empty()) {
        // Gone within its match (or check): its later seats there are left at once, not
        // waited for (it comes back to the queue, never to them).
        desk_.abandon(open.seat_token);
    } else if (open.waiting && on_note) {
        on_note(fmt::format("{} {} left (a connection closed)",
                            open.arrival.bot.person ? "person" : "bot", open.arrival.bot.name));
    }
    const Connection connection = open.connection;
    counts(open, false);
    sitters_.erase(connection);
    open_.erase(found);
    if (on_leave)
        on_leave(connection);
}

void Lobby::refused(const Refusal& refusal, const std::string& peer) const {
    ++refusals_[refusal.kind.empty() ? std::to_string(refusal.status) : refusal.kind];
    if (on_note)
        on_note(fmt::format("refused a connection from {}: {} ({})", peer, refusal.why,
                            refusal.status));
}

bool Lobby::take(Connection connection, const std::string& seat_token, int games) {
    const auto sitter = sitters_.find(connection);
    if (sitter == sitters_.end())
        return false;
    Open& open = open_.at(sitter->second);
    open.waiting = false;
    open.seat_token = seat_token;
    open.games_left = games;
    desk_.expect(seat_token, games);
    desk_.wait(seat_token, *sitter->second);
    return true;
}

void Lobby::check_over(const std::string& seat_token, bool passed, const std::string& why) {
    desk_.forget_token(seat_token);
    const auto found = std::find_if(open_.begin(), open_.end(), [&](const auto& o) {
        return o.second.seat_token == seat_token;
    });
    if (found == open_.end())
        return;  // its connection is gone
    Sitter* sitter = found->first;
    Open& open = found->second;
    open.seat_token.clear();
    open.games_left = 0;
    if (!desk_.waiting(*sitter)) {
        // Its last scenario's end is on its way: told once it is answered (wait()).
        checked_[sitter] = {passed, why};
        return;
    }
    desk_.stop_waiting(*sitter);
    if (closing_)
        return told(*sitter);
    if (!passed)
        return told(*sitter, why);
    const auto bot = store_.bot(open.arrival.bot.name);
    if (!bot || bot->state != "active")
        return told(*sitter);
    open.arrival.bot = *bot;
    open.arrival.entry = store_.entry(*bot, open.arrival.entry.label);
    waits(open);
}

void Lobby::forget(Sitter& sitter) {
    stop_waiting(sitter);
}

void Lobby::match_over(const std::vector<std::string>& seat_tokens) {
    std::vector<Connection> back;
    for (const std::string& token : seat_tokens) {
        desk_.forget_token(token);
        for (auto& [sitter, open] : open_) {
            if (open.seat_token != token)
                continue;
            // Its next wait brings it back to play. Cut short, it waits at the desk for a seat
            // that will not come: it waits to play again now. (One in a seat, or whose game has
            // just ended, comes back by itself: wait().)
            open.seat_token.clear();
            open.games_left = 0;
            if (desk_.waiting(*sitter)) {
                desk_.stop_waiting(*sitter);
                back.push_back(open.connection);
            }
        }
    }
    for (const Connection connection : back) {
        const auto sitter = sitters_.find(connection);
        if (sitter == sitters_.end())
            continue;
        if (closing_)
            told(*sitter->second);
        else
            waits(open_.at(sitter->second));
    }
}

void Lobby::turn_away(const std::vector<Connection>& connections) {
    for (const Connection connection : connections)
        if (const auto sitter = sitters_.find(connection); sitter != sitters_.end())
            told(*sitter->second);
}

void Lobby::close() {
    closing_ = true;
    std::vector<Connection> waiting;
    for (const auto& [sitter, open] : open_)
        if (open.waiting)
            waiting.push_back(open.connection);
    turn_away(waiting);
}

void Lobby::finish() {
    closing_ = true;
    checked_.clear();
    std::vector<Connection> all;
    for (const auto& [sitter, open] : open_)
        all.push_back(open.connection);
    for (const Connection connection : all)
        if (const auto sitter = sitters_.find(connection); sitter != sitters_.end()) {
            desk_.stop_waiting(*sitter->second);
            told(*sitter->second);
        }
}

int Lobby::connections(int bot) const {
    const auto found = per_bot_.find(bot);
    return found == per_bot_.end() ? 0 : found->second;
}

}  // namespace bg::arena
