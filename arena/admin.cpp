#include "arena/admin.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arena/api.hpp"
#include "arena/core/ladder.hpp"
#include "arena/sql_store.hpp"
#include "core/text.hpp"
#include "record/json_value.hpp"
#include "sql/postgres_connection.hpp"

namespace bg::arena {

Console out(stdout);
Console err(stderr);

namespace {

std::optional<Bot> named_bot(Store& store, const std::string& name, bool person) {
    auto bot = store.bot(name);
    const char* const kind = person ? "person" : "bot";
    if (bot && bot->person != person) {
        log::error("{} is a {}, not a {} (arena {} ...)", escape_for_terminal(name),
                   bot->person ? "person" : "bot", kind, bot->person ? "person" : "bot");
        return std::nullopt;
    }
    if (!bot || bot->state == "removed")
        log::error("there is no {} named {}{}", kind, escape_for_terminal(name),
                   bot ? " (removed)" : "");
    return bot && bot->state != "removed" ? bot : std::nullopt;
}

std::string status(const Bot& bot, const std::vector<Entry>& entries) {
    const std::string why = why_not_queued(bot, entries);
    return why.empty()                                    ? "active"
           : bot.state != "active" || !bot.paused.empty() ? why
                                                          : "active; " + why;
}

nlohmann::json bot_json(const Bot& bot, const std::vector<Entry>& entries) {
    nlohmann::json versions = nlohmann::json::array();
    for (const Entry& e : entries) {
        nlohmann::json version = version_json(e);
        version["matches"] = e.matches;
        versions.push_back(std::move(version));
    }
    return {{"name", bot.name},
            {"owner", bot.owner},
            {"kind", kind(bot)},
            {"command", bot.command ? nlohmann::json(*bot.command) : nlohmann::json()},
            {"anchor", json_or_null(bot.anchor)},
            {"about", json_or_null(bot.about)},
            {"state", bot.state},
            {"paused", json_or_null(bot.paused)},
            {"not_queued", json_or_null(why_not_queued(bot, entries))},
            {"created", bot.created},
            {"versions", versions}};
}

}  // namespace

int bot_add(Store& store, const std::string& name, const std::string& owner,
            const std::optional<std::string>& command, const std::optional<double>& anchor,
            const std::string& about) {
    try {
        if (!valid_about(about))
            throw std::invalid_argument(about_rule);
        const std::string token = store.add_bot(name, owner, command, anchor);
        if (!about.empty())
            store.set_about(store.bot(name)->id, about);
        if (command) {  // the arena starts it: no token lets anyone in as it
            log::info("added house bot {}{}", name,
                      anchor ? fmt::format(", the anchor at {}", *anchor) : "");
            return exit_done;
        }
        log::info("added remote bot {}; its token (shown once, kept only as a hash):", name);
        out.write(token + "\n");
        return exit_done;
    } catch (const std::invalid_argument& e) {
        log::error("{}", e.what());
        return exit_usage;
    }
}

int bot_about(Store& store, const std::string& name, const std::string& about) {
    const auto bot = named_bot(store, name, false);
    if (!bot)
        return exit_usage;
    try {
        store.set_about(bot->id, about);
    } catch (const std::invalid_argument& e) {
        log::error("{}", e.what());
        return exit_usage;
    }
    log::info("{} is {}", name, about.empty() ? "described no more" : "described: " + about);
    return exit_done;
}

int person_add(Store& store, const std::string& name) {
    try {
        const std::string code = store.add_person(name);
        log::info(
            "added person {}; the code to sign in with at /play (shown once, kept only "
            "as a hash):",
            name);
        out.write(code + "\n");
        return exit_done;
    } catch (const std::invalid_argument& e) {
        log::error("{}", e.what());
        return exit_usage;
    }
}

int bot_list(Store& store, bool json, bool people) {
    auto bots = store.bots(true);
    std::erase_if(bots, [people](const Bot& bot) { return bot.person != people; });
    if (json) {
        nlohmann::json all = nlohmann::json::array();
        for (const Bot& bot : bots)
            all.push_back(bot_json(bot, store.entries_of(bot.id)));
        out.write(all.dump(2) + "\n");
        return exit_done;
    }
    out.write(fmt::format("{:<20} {:<16} {:<7} {:<10} {}\n", people ? "person" : "bot", "owner",
                          "kind", "versions", "state"));
    for (const Bot& bot : bots) {
        const auto entries = store.entries_of(bot.id);
        out.write(fmt::format("{:<20} {:<16} {:<7} {:<10} {}\n", bot.name, bot.owner, kind(bot),
                              entries.size(), escape_for_terminal(status(bot, entries))));
    }
    return exit_done;
}

int bot_change(Store& store, const std::string& what, const std::string& name, bool people) {
    const auto bot = named_bot(store, name, people);
    if (!bot)
        return exit_usage;
    if (what == "rotate-token" || what == "rotate-code") {
        const std::string token = store.rotate_token(bot->id);
        log::info("{} has a new {} (its old one no longer connects):", name,
                  people ? "code" : "token");
        out.write(token + "\n");
        return exit_done;
    }
    const std::string state = what == "enable"    ? "active"
                              : what == "disable" ? "disabled"
                                                  : "removed";
    store.set_state(bot->id, state);
    if (what == "enable")
        store.set_paused(bot->id, "");  // a paused bot plays again
    log::info("{} is {}{}{}", name, state,
              state == "removed" ? " (its matches stay in the archive)" : "",
              state == "active" ? " (a running arena reads it at SIGHUP or when it connects)" : "");
    return exit_done;
}

int show_config(Store& store, bool json) {
    nlohmann::json config = config_json(store.model(), store.matchmaker());
    if (json) {
        out.write(config.dump(2) + "\n");
        return exit_done;
    }
    config.erase("version");
    for (const auto& [part, values] : config.items())
        for (const auto& [key, value] : values.items())
            out.write(fmt::format("{}.{} = {}\n", part, key, value.dump()));
    return exit_done;
}

int standings(Store& store, bool json, bool people) {
    const Roster roster = read_roster(store);
    const Fit fit = fit_of(roster.rankings(), roster.entry_ids());
    if (json) {  // as the API gives it
        out.write(leaderboard_json(roster, fit, people).dump(2) + "\n");
        return exit_done;
    }
    const auto rows = roster.leaderboard(people ? Board::people : Board::bots, fit);
    const auto entries_of = [&roster](int bot) { return roster.entries_of(bot); };
    out.write(fmt::format("{:>3}  {:<20} {:>7} {:>12} {:>7}  {:>15}  {}\n", "#",
                          people ? "person" : "bot", "rating", "mu +- sigma", "matches",
                          "fit (Elo, 95%)", "state"));
    for (const Row& row : rows) {
        const std::string fit = row.fit ? fmt::format("{:+.0f} [{:+.0f}, {:+.0f}]", row.fit->elo,
                                                      row.fit->low, row.fit->high)
                                        : "-";
        out.write(fmt::format(
            "{:>3}  {:<20} {:>7.2f} {:>6.2f} +-{:>4.2f} {:>7}  {:>15}  {}{}{}\n", row.rank,
            row.bot.name, row.conservative, row.entry.belief.mu, row.entry.belief.sigma,
            row.entry.matches, fit, escape_for_terminal(status(row.bot, entries_of(row.bot.id))),
            row.provisional ? ", provisional" : "", row.bot.anchor ? ", anchor" : ""));
    }
    out.write(
        "rating: mu - 3 sigma (Weng-Lin); fit: the order-free maximum-likelihood fit of "
        "every rated match (Plackett-Luce), its mean 0\n");
    return exit_done;
}

int copy_command(const std::string& from, const std::string& to, bool json) {
    auto copied = copy_arena(from, to);
    if (auto* error = std::get_if<std::string>(&copied)) {
        log::error("{}", *error);
        return exit_database;
    }
    nlohmann::json rows = nlohmann::json::object();
    std::string said;
    for (const auto& [table, n] : std::get<Copied>(copied)) {
        rows[table] = n;
        said += fmt::format("{}{} {}", said.empty() ? "" : ", ", n, table);
    }
    if (json)
        out.write(
            nlohmann::json{{"from", sql::shown(from)}, {"to", sql::shown(to)}, {"rows", rows}}.dump(
                2) +
            "\n");
    else
        out.write(fmt::format("arena: copied {} to {}: {}\n", escape_for_terminal(sql::shown(from)),
                              escape_for_terminal(sql::shown(to)), said));
    return exit_done;
}

int rerate_command(Store& store, bool json) {
    const auto rated = store.rated_in_order();
    const auto entries = store.entries();
    const Rerated again =
        rerate(rated, starts(entries, store.bots(true), store.model()), store.model());
    int differing_entries = 0;
    nlohmann::json rows = nlohmann::json::array();
    for (const Entry& e : entries) {
        const stats::Belief& computed = again.beliefs.at(e.id);
        const bool same = computed == e.belief;
        differing_entries += !same;
        rows.push_back({{"entry", e.id},
                        {"stored", to_json(e.belief)},
                        {"recomputed", to_json(computed)},
                        {"same", same}});
    }
    int differing_seasons = 0;
    const nlohmann::json seasons = rerate_seasons(store, differing_seasons);
    const bool agree = differing_entries == 0 && again.differing.empty() && differing_seasons == 0;
    if (json)
        out.write(nlohmann::json{{"matches", again.matches},
                                 {"agree", agree},
                                 {"differing_matches", again.differing},
                                 {"entries", rows},
                                 {"seasons", seasons}}
                      .dump(2) +
                  "\n");
    else
        out.write(fmt::format(
            "arena: {} rated matches recomputed in the order they were rated: {}{}\n",
            again.matches,
            agree ? "every rating is exactly the stored one"
                  : fmt::format("{} entries and {} matches differ", differing_entries,
                                again.differing.size()),
            seasons.empty() ? ""
            : differing_seasons
                ? fmt::format("; {} of {} seasons closed differ from their frozen boards",
                              differing_seasons, seasons.size())
                : fmt::format("; the {} seasons closed are exactly as frozen", seasons.size())));
    return agree ? exit_done : exit_differ;
}

}  // namespace bg::arena
