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
    const std::string hash = token_hash(token);
    if (const auto playing = playing_.find(&sitter); playing != playing_.end() &&
                                                     playing->second.queued.bearer_hash == hash &&
                                                     --playing->second.games_left > 0) {
        // Between two games of its match (one has just ended for it): the next seat made for
        // it comes from the desk.
        desk_.wait(playing->second.seat_token, sitter);
        return;
    }
    playing_.erase(&sitter);
    if (closing_) {
        sitter.no_more_games();
        return;
    }
    if (const auto checked = checked_.find(&sitter); checked != checked_.end()) {
        const auto [passed, why] = checked->second;
        checked_.erase(checked);
        if (!passed)
            return sitter.sent_away(why);
    }
    const auto bot = store_.bot_by_token(token);
    // A person back after its match's last game (which the arena may have seen over before
    // its end was answered): its match is over.
    const bool returning = arrived_.count(&sitter) > 0;
    if (!bot || day_limit(*bot) || (returning && bot->person)) {
        // Disabled, removed, or its day's matches played; or a person's match is over (the
        // page says how it went, and plays again by coming again).
        sitter.no_more_games();
        return;
    }
    const auto said_at = knocked_.find(hash);
    const Said said = said_at == knocked_.end() ? Said{} : said_at->second;
    const std::string& version = said.version;
    if (find_queued(&sitter) != queue_.end())
        return;  // in the queue already
    Queued queued{&sitter, *bot,         store_.entry(*bot, version), now_ms_(), said.peer,
                  hash,    said.opponent};
    const bool arriving = arrived_.insert(&sitter).second;
    if (arriving)
        arrivals_[bot->id].push_back(now_ms_());
    if (on_note && arriving && bot->person)
        on_note(fmt::format("person {} came from {}, to play {}", bot->name, said.peer,
                            said.opponent.empty() ? "whoever is waiting" : said.opponent));
    else if (on_note && arriving)
        on_note(fmt::format("bot {} connected from {}{} ({} connection{})", bot->name, said.peer,
                            version.empty() ? "" : " as version " + escape_for_terminal(version),
                            connections(bot->id) + 1, connections(bot->id) == 0 ? "" : "s"));
    if (!bot->person && (!bot->paused.empty() || queued.entry.checked.empty())) {
        // Not yet checked, or paused: checked first, over this connection.
        if (on_note)
            on_note(fmt::format("bot {}{} is checked before it is queued{}", bot->name,
                                version.empty() ? "" : " " + escape_for_terminal(version),
                                bot->paused.empty() ? "" : " (paused: " + bot->paused + ")"));
        if (on_check)
            on_check(queued);
        return;
    }
    enqueue(std::move(queued));
}

void Lobby::enqueue(Queued queued) {
    queue_.push_back(std::move(queued));
    if (on_queue)
        on_queue();
}

void Lobby::stop_waiting(Sitter& sitter) {
    desk_.stop_waiting(sitter);
    if (const auto playing = playing_.find(&sitter); playing != playing_.end()) {
        // Gone within its match (or check): its later seats there are left at once, not
        // waited for (it comes back to the queue, never to them).
        desk_.abandon(playing->second.seat_token);
        playing_.erase(playing);
    }
    arrived_.erase(&sitter);
    checked_.erase(&sitter);
    if (const auto queued = find_queued(&sitter); queued != queue_.end()) {
        if (on_note)
            on_note(fmt::format("{} {} left (a connection closed)",
                                queued->bot.person ? "person" : "bot", queued->bot.name));
        queue_.erase(queued);
    }
}

void Lobby::refused(const Refusal& refusal, const std::string& peer) const {
    ++refusals_[refusal.kind.empty() ? std::to_string(refusal.status) : refusal.kind];
    if (on_note)
        on_note(fmt::format("refused a connection from {}: {} ({})", peer, refusal.why,
                            refusal.status));
}

void Lobby::take(Sitter* sitter, const std::string& seat_token, int games) {
    const auto queued = find_queued(sitter);
    if (queued == queue_.end())
        return;
    seat_at(*queued, seat_token, games);
    queue_.erase(queued);
}

void Lobby::take_to_check(const Queued& queued, const std::string& seat_token, int games) {
    seat_at(queued, seat_token, games);
}

void Lobby::seat_at(const Queued& queued, const std::string& seat_token, int games) {
    // Its token's hash: between the match's games, a wait() with the same token goes to the desk.
    playing_[queued.sitter] = {queued, seat_token, games};
    desk_.expect(seat_token, games);
    desk_.wait(seat_token, *queued.sitter);
}

void Lobby::check_over(const std::string& seat_token, bool passed, const std::string& why) {
    desk_.forget_token(seat_token);
    const auto playing = std::find_if(playing_.begin(), playing_.end(), [&](const auto& p) {
        return p.second.seat_token == seat_token;
    });
    if (playing == playing_.end())
        return;  // its connection is gone
    Sitter* sitter = playing->first;
    Queued queued = playing->second.queued;
    playing_.erase(playing);
    if (!desk_.waiting(*sitter)) {
        // Its last scenario's end is on its way: told once it is answered (wait()).
        checked_[sitter] = {passed, why};
        return;
    }
    desk_.stop_waiting(*sitter);
    if (closing_)
        return sitter->no_more_games();
    if (!passed)
        return sitter->sent_away(why);
    if (const auto bot = store_.bot(queued.bot.name); bot && bot->state == "active") {
        queued.bot = *bot;
        queued.entry = store_.entry(*bot, queued.entry.label);
        queued.since_ms = now_ms_();
        enqueue(std::move(queued));
    } else {
        sitter->no_more_games();
    }
}

void Lobby::forget(Sitter& sitter) {
    stop_waiting(sitter);
}

void Lobby::match_over(const std::vector<std::string>& seat_tokens) {
    for (const std::string& token : seat_tokens)
        desk_.forget_token(token);
    std::vector<Queued> back;
    std::erase_if(playing_, [&](const auto& entry) {
        const auto& [sitter, playing] = entry;
        if (std::find(seat_tokens.begin(), seat_tokens.end(), playing.seat_token) ==
            seat_tokens.end())
            return false;
        // Cut short, it waits at the desk for a seat that will not come: back to the queue. (One
        // in a seat, or whose game has just ended, comes back by itself: wait().)
        if (desk_.waiting(*sitter)) {
            desk_.stop_waiting(*sitter);
            back.push_back(playing.queued);
        }
        return true;
    });
    for (Queued& q : back) {
        if (find_queued(q.sitter) != queue_.end())
            continue;
        if (closing_) {
            q.sitter->no_more_games();
            continue;
        }
        q.since_ms = now_ms_();
        queue_.push_back(std::move(q));
    }
    if (!back.empty() && on_queue && !closing_)
        on_queue();
}

void Lobby::turn_away(const std::function<bool(const Bot&)>& away) {
    std::vector<Sitter*> gone;
    std::erase_if(queue_, [&](const Queued& q) {
        if (!away(q.bot))
            return false;
        gone.push_back(q.sitter);
        return true;
    });
    for (Sitter* sitter : gone)
        sitter->no_more_games();
}

void Lobby::close() {
    closing_ = true;
    for (const Queued& q : std::exchange(queue_, {}))
        q.sitter->no_more_games();
}

void Lobby::finish() {
    closing_ = true;
    queue_.clear();
    playing_.clear();
    checked_.clear();
    for (Sitter* sitter : std::exchange(arrived_, {})) {
        desk_.stop_waiting(*sitter);
        sitter->no_more_games();
    }
}

std::vector<Lobby::Queued>::iterator Lobby::find_queued(const Sitter* sitter) {
    return std::find_if(queue_.begin(), queue_.end(),
                        [&](const Queued& q) { return q.sitter == sitter; });
}

int Lobby::connections(int bot) const {
    const auto waiting = std::count_if(queue_.begin(), queue_.end(),
                                       [&](const Queued& q) { return q.bot.id == bot; });
    const auto playing = std::count_if(playing_.begin(), playing_.end(), [&](const auto& p) {
        return p.second.queued.bot.id == bot;
    });
    return static_cast<int>(waiting + playing);
}

}  // namespace bg::arena
