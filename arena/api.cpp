#include "arena/api.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/out_code.hpp"
#include "record/json_value.hpp"
#include "stats/median.hpp"

namespace bg::arena {

namespace {

nlohmann::json rated_json(const Rated& r) {
    return {{"seat", r.seat},
            {"rank", r.rank},
            {"before", to_json(r.before)},
            {"after", to_json(r.after)}};
}

// An entrant of a match, named: as rated_json, with its account's name and its version.
nlohmann::json entrant_json(const Rated& r, const Roster::Named& named) {
    nlohmann::json e = rated_json(r);
    e["bot"] = named.bot;
    e["bot_version"] = shown_version(named.kind, named.version);
    return e;
}

nlohmann::json out_code_json(const PlayerResult& p) {
    return p.out_code ? nlohmann::json(to_string(*p.out_code)) : nlohmann::json(nullptr);
}

// The player of first seat `seat` in a game of `rotation` at a table of `players`: its seat
// there (seat s of rotation r holds the entrant of first seat (s + r) mod players).
std::size_t seat_in(int seat, int rotation, int players) {
    return static_cast<std::size_t>(((seat - rotation) % players + players) % players);
}

// The account's own player in a game of a match it played, and its seat there; none where the
// stored result has no such seat.
std::optional<std::pair<std::size_t, const PlayerResult*>> own_player(const Store::SeatGame& sg) {
    const std::size_t seat = seat_in(sg.seat, sg.game.rotation, sg.players);
    if (seat >= sg.game.result.players.size())
        return std::nullopt;
    return std::pair{seat, &sg.game.result.players[seat]};
}

// A game of a match as its pages show it: each seat's entrant, place and why out.
nlohmann::json game_json(int match, const StoredGame& g, const std::vector<std::string>& by_seat) {
    nlohmann::json seats = nlohmann::json::array();
    const int players = static_cast<int>(g.result.players.size());
    for (std::size_t s = 0; s < g.result.players.size(); ++s) {
        const PlayerResult& p = g.result.players[s];
        const std::size_t entrant = (s + static_cast<std::size_t>(g.rotation)) %
                                    static_cast<std::size_t>(std::max(players, 1));
        seats.push_back({{"bot", entrant < by_seat.size() ? by_seat[entrant] : ""},
                         {"place", p.rank},
                         {"outcome", to_string(p.outcome)},
                         {"out_code", out_code_json(p)},
                         {"reason", p.reason},
                         {"tiles", p.tiles},
                         {"peels", p.peels},
                         {"dumps", p.dumps}});
    }
    return {{"rotation", g.rotation},
            {"page", g.log.empty()
                         ? nlohmann::json(nullptr)
                         : nlohmann::json(fmt::format("/matches/{}/games/{}", match, g.rotation))},
            {"seats", seats},
            {"result", to_json(g.result)}};
}

// A mean, or null over nothing.
nlohmann::json mean_or_null(double sum, int n) {
    return n > 0 ? nlohmann::json(sum / n) : nlohmann::json(nullptr);
}

// What an account's games came to: its out-reasons counted by code, and its mean think time,
// CPU and wait for a CPU a game (each over the games that have the figure).
nlohmann::json games_summary(const std::vector<Store::SeatGame>& all) {
    std::map<std::string, int> out;
    int games = 0, thought = 0, timed = 0, waited = 0, fair = 0, contended = 0;
    double think = 0, cpu = 0, wait = 0;
    std::vector<double> round_trips;  // each game's median, over a remote bot's connection
    for (const Store::SeatGame& sg : all) {
        const auto own = own_player(sg);
        if (!own)
            continue;
        const PlayerResult& p = *own->second;
        ++games;
        // Whether its race was fair: measured only where the arena ran the players.
        if (sg.game.result.contended)
            ++(*sg.game.result.contended ? contended : fair);
        if (p.remote && p.remote->rtt_ms)
            round_trips.push_back(*p.remote->rtt_ms);
        if (p.out_code)
            ++out[std::string(to_string(*p.out_code))];
        if (p.counts && p.counts->timed > 0) {
            ++thought;
            think += p.counts->think_ms;
        }
        if (p.cpu_ms) {
            ++timed;
            cpu += *p.cpu_ms;
        }
        if (p.cpu_wait_ms) {
            ++waited;
            wait += *p.cpu_wait_ms;
        }
    }
    nlohmann::json reasons = nlohmann::json::object();
    for (const auto& [code, n] : out)
        reasons[code] = n;
    return {{"games", games},
            {"out", reasons},
            {"think_ms", mean_or_null(think, thought)},
            {"cpu_ms", mean_or_null(cpu, timed)},
            {"cpu_wait_ms", mean_or_null(wait, waited)},
            {"fair_races", fair},
            {"contended_races", contended},
            {"round_trip_ms", json_or_null(stats::median(round_trips))}};
}

}  // namespace

nlohmann::json to_json(const stats::Belief& belief) {
    return {{"mu", belief.mu}, {"sigma", belief.sigma}};
}

nlohmann::json to_json(const Row& row) {
    nlohmann::json fit = nullptr;
    if (row.fit)
        fit = {{"elo", row.fit->elo}, {"low", row.fit->low}, {"high", row.fit->high}};
    return {{"rank", row.rank},
            {"name", row.bot.name},
            {"owner", row.bot.owner},
            {"kind", kind(row.bot)},
            {"anchor", json_or_null(row.bot.anchor)},
            {"about", json_or_null(row.bot.about)},
            {"version", shown_version(kind(row.bot), row.entry.label)},
            {"rating", to_json(row.entry.belief)},
            {"conservative", row.conservative},
            {"provisional", row.provisional},
            {"matches", row.entry.matches},
            {"state", row.bot.state},
            {"paused", json_or_null(row.bot.paused)},
            {"fit", fit}};
}

nlohmann::json leaderboard_json(const Roster& roster, const Fit& fit, bool people,
                                const Statuses& statuses,
                                const std::map<int, double>& round_trips) {
    nlohmann::json rows = nlohmann::json::array();
    for (const Row& row : roster.leaderboard(people ? Board::people : Board::bots, fit)) {
        nlohmann::json j = to_json(row);
        j["last_match"] = json_or_null(roster.last_match(row.entry.id));
        const auto trip = round_trips.find(row.bot.id);
        j["round_trip_ms"] = trip != round_trips.end() ? nlohmann::json(trip->second) : nullptr;
        const auto status = statuses.find(row.bot.id);
        j["status"] = status != statuses.end() ? status->second : default_status(row.bot);
        rows.push_back(std::move(j));
    }
    return {{"version", api_version}, {"leaderboard", rows}};
}

std::string default_status(const Bot& bot) {
    if (bot.state != "active")
        return bot.state;
    if (!bot.paused.empty())
        return "paused";
    return bot.command ? "queued" : "away";
}

std::string shown_version(std::string_view kind, const std::string& label) {
    return kind == "house" ? "house-" + token_hash(label).substr(0, 8) : label;
}

nlohmann::json version_json(const Entry& e) {
    return {{"version", e.label},
            {"since", e.created},
            {"rating", to_json(e.belief)},
            {"checked", json_or_null(e.checked)},
            {"check_failed", json_or_null(e.check_failed)}};
}

std::optional<nlohmann::json> bot_json(const Store& store, const Roster& roster,
                                       const std::string& name, bool person,
                                       const Statuses& statuses) {
    const Bot* bot = roster.account(name);
    if (!bot || bot->state == "removed" || bot->person != person)
        return std::nullopt;
    nlohmann::json versions = nlohmann::json::array();
    const auto entries = roster.entries_of(bot->id);
    const auto hosted = store.hosted_of(bot->id);
    std::vector<Store::SeatGame> every_game;  // of every version
    for (const Entry& e : entries) {
        std::map<int, nlohmann::json> tables;  // by match: everyone at it, in seat order
        for (const auto& [match, r] : store.tables_of(e.id))
            tables[match].push_back(entrant_json(r, roster.named(r.entry)));
        std::map<int, nlohmann::json> places;  // by match: its place in each rotation
        const auto games = store.games_of_entry(e.id);
        every_game.insert(every_game.end(), games.begin(), games.end());
        for (const Store::SeatGame& sg : games)
            if (const auto own = own_player(sg))
                places[sg.match].push_back({{"rotation", sg.game.rotation},
                                            {"seat", own->first},
                                            {"place", own->second->rank},
                                            {"out_code", out_code_json(*own->second)}});
        nlohmann::json matches = nlohmann::json::array();
        for (const auto& played : store.history(e.id)) {
            nlohmann::json m = rated_json(played.rated);
            m["match"] = played.match;
            m["finished"] = played.finished;
            m["change"] = played.rated.after.mu - played.rated.before.mu;
            m["conservative"] = stats::conservative(played.rated.after);
            m["table"] =
                tables.count(played.match) ? tables[played.match] : nlohmann::json::array();
            m["games"] =
                places.count(played.match) ? places[played.match] : nlohmann::json::array();
            matches.push_back(std::move(m));
        }
        nlohmann::json version = version_json(e);
        version["version"] = shown_version(kind(*bot), e.label);
        version["hosted"] = std::any_of(hosted.begin(), hosted.end(),
                                        [&](const HostedVersion& h) { return h.entry == e.id; });
        version["conservative"] = stats::conservative(e.belief);
        version["matches_played"] = e.matches;
        version["matches"] = std::move(matches);
        versions.push_back(std::move(version));
    }
    return nlohmann::json{
        {"version", api_version},
        {"name", bot->name},
        {"owner", bot->owner},
        {"kind", kind(*bot)},
        {"anchor", json_or_null(bot->anchor)},
        {"about", json_or_null(bot->about)},
        {"state", bot->state},
        {"paused", json_or_null(bot->paused)},
        {"paused_at", json_or_null(bot->paused_at)},
        {"not_queued", json_or_null(why_not_queued(*bot, entries))},
        {"status", statuses.count(bot->id) ? statuses.at(bot->id) : default_status(*bot)},
        {"games", games_summary(every_game)},
        {"versions", versions}};
}

nlohmann::json match_json(const MatchRecord& record, const Roster& roster) {
    const Match& match = record.match;
    nlohmann::json entrants = nlohmann::json::array();
    std::vector<std::string> by_seat(match.entrants.size());
    for (const Rated& r : match.entrants) {
        const Roster::Named named = roster.named(r.entry);
        nlohmann::json e = entrant_json(r, named);
        e["kind"] = named.kind;
        e["change"] = r.after.mu - r.before.mu;
        if (r.seat >= 0 && static_cast<std::size_t>(r.seat) < by_seat.size())
            by_seat[static_cast<std::size_t>(r.seat)] = named.bot;
        entrants.push_back(std::move(e));
    }
    nlohmann::json games = nlohmann::json::array();
    if (match.state != "running")
        for (const StoredGame& g : record.games)
            games.push_back(game_json(match.id, g, by_seat));
    return nlohmann::json{{"version", api_version},
                          {"id", match.id},
                          {"state", match.state},
                          {"started", match.started},
                          {"finished", json_or_null(match.finished)},
                          {"why", json_or_null(match.why)},
                          {"entrants", entrants},
                          {"games", games}};
}

std::optional<nlohmann::json> match_json(const Store& store, const Roster& roster, int id) {
    const auto match = store.match(id);
    if (!match)
        return std::nullopt;
    MatchRecord record{*match, {}};
    if (match->state != "running")
        record.games = store.games_of(id);
    return match_json(record, roster);
}

nlohmann::json config_json(const stats::WengLin& model, const MatchmakerConfig& matchmaker) {
    nlohmann::json rating = to_json(model);
    rating["provisional_matches"] = provisional_matches;
    rating["leaderboard"] = "mu - 3 sigma";
    return {{"version", api_version},
            {"rating", std::move(rating)},
            {"matchmaker", to_json(matchmaker)}};
}

nlohmann::json began_json(const effect::Began& began) {
    return {{"version", api_version}, {"match", began.match}, {"bots", began.bots}};
}

nlohmann::json statuses_json(const effect::Statuses& statuses) {
    nlohmann::json said = nlohmann::json::object();
    for (const auto& [name, status] : statuses.by_name)
        said[name] = status;
    return {{"version", api_version}, {"statuses", said}};
}

}  // namespace bg::arena
