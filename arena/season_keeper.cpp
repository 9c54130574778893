#include "arena/season_keeper.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "arena/season_docs.hpp"
#include "arena/seasons.hpp"
#include "cli/log.hpp"
#include "core/text.hpp"

namespace bg::arena {

namespace {

constexpr std::uint64_t look_every_ms = 2'000, soon_ms = 200;

}  // namespace

SeasonKeeper::SeasonKeeper(Store& store, Venue& venue, Hosting& hosting, Plan plan)
    : store_(store), venue_(venue), hosting_(hosting), plan_(std::move(plan)) {}

void SeasonKeeper::look(std::uint64_t now_ms) {
    if (now_ms < next_ms_ && !(soon_ && now_ms >= last_ms_ + soon_ms))
        return;
    last_ms_ = now_ms;
    next_ms_ = now_ms + look_every_ms;
    soon_ = false;
    input::Finals wanted;
    std::vector<Season> seasons;
    std::string now;
    try {
        now = store_.seasons().now();
        seasons = store_.seasons().all();
    } catch (const std::exception& e) {
        log::warning("the seasons cannot be read from the store: {} (tried again)", e.what());
        return;
    }
    // Each season on its own: one that cannot be read now holds back none of the others.
    for (const Season& season : seasons)
        try {
            if (season.state == "open" && season.closes <= now)
                log::info("{}", close_season(store_, season));
            else if (season.state == "finals")
                finals(season, wanted);
        } catch (const std::exception& e) {
            log::warning("season {} cannot be read or written: {} (tried again)", season.name,
                         e.what());
        }
    plan_.feed(std::move(wanted));
}

void SeasonKeeper::finals(const Season& season, input::Finals& wanted) {
    const auto frozen = store_.seasons().frozen(season.id);
    if (!frozen)
        return;
    auto& played = played_[season.id];
    const int after = played.empty() ? 0 : played.rbegin()->first;
    for (auto& [order, game] : store_.seasons().finals_rated(season.id, after))
        played[order] = game;
    std::vector<FinalsGame> games;
    for (const auto& [order, game] : played)
        games.push_back(game);
    // The accounts and versions read once: to name the finals, and to seat their pairs.
    const auto accounts = store_.bots(true);
    const auto versions = store_.entries();
    const auto names = names_of(accounts, versions);
    const FinalsState state = fold_finals(store_, season, frozen->finalists, games, names);
    if (state.over) {
        played_.erase(season.id);
        const auto first = names.find(state.places.front().entry);
        log::info("season {}'s finals are over after {} matches: {} first", season.name,
                  games.size(), first != names.end() ? first->second.bot : "");
        return;
    }
    std::map<int, Bot> bots;
    for (const Bot& b : accounts)
        bots[b.id] = b;
    std::map<int, Entry> entries;
    for (const Entry& e : versions)
        entries[e.id] = e;
    for (const FinalsPair& pair : state.wanted) {
        FinalsTable table{{season.id, pair.stage, pair.round, pair.seed}, {}};
        for (const int entry : {pair.first, pair.second}) {
            const auto e = entries.find(entry);
            const auto b = e == entries.end() ? bots.end() : bots.find(e->second.bot);
            if (b == bots.end())
                break;
            if (const auto house = house_of(b->second, e->second))
                table.seats.push_back(*house);
        }
        if (table.seats.size() == 2)
            wanted.tables.push_back(std::move(table));
    }
}

std::optional<House> SeasonKeeper::house_of(const Bot& bot, const Entry& entry) {
    for (const HouseSeats& seats : plan_.houses())
        if (seats.house.bot == bot.id && seats.house.entry == entry.id)
            return seats.house;
    if (const auto kept = launched_.find(entry.id); kept != launched_.end())
        return kept->second;
    std::variant<int, std::string> added = std::string("it is neither a house bot's nor hosted");
    bool hosted = false;
    if (bot.command) {
        added = venue_.add_command(entry.label);
    } else {
        const auto versions = store_.hosted_of(bot.id);
        const auto version = std::find_if(versions.begin(), versions.end(),
                                          [&](const auto& v) { return v.entry == entry.id; });
        if (version != versions.end()) {
            added = hosting_.launch(*version);
            hosted = true;
        }
    }
    if (const auto* why = std::get_if<std::string>(&added)) {
        log::error("{}'s version {} cannot play its finals: {}", bot.name,
                   escape_for_terminal(entry.label), escape_for_terminal(*why));
        return std::nullopt;
    }
    return launched_[entry.id] = House{bot.id, std::get<int>(added), entry.id, hosted};
}

}  // namespace bg::arena
