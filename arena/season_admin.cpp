// arena season add, list and show (docs/arena.md, "Seasons"), and what `arena rerate` checks of
// the seasons: each closed season's frozen board (and, once over, its finals' standings) as the
// archive gives them again.
#include <sys/random.h>

#include <fmt/format.h>

#include "arena/admin.hpp"
#include "arena/season_docs.hpp"
#include "arena/seasons.hpp"
#include "core/text.hpp"
#include "tournament/spec.hpp"

namespace bg::arena {

namespace {

std::uint64_t drawn_seed() {
    std::uint64_t seed = 0;
    if (::getrandom(&seed, sizeof seed, 0) != static_cast<ssize_t>(sizeof seed))
        throw std::runtime_error("no seed could be drawn from the kernel");
    return seed;
}

// "6,3,2": the finals' stages, or why not.
std::optional<std::vector<int>> parse_stages(const std::string& text) {
    std::vector<int> fields;
    std::string number;
    for (const char c : text + ",") {
        if (c != ',') {
            number += c;
            continue;
        }
        const auto n = parse_number<int>(number);
        if (!n)
            return std::nullopt;
        fields.push_back(*n);
        number.clear();
    }
    return fields;
}

// The rules `options` ask for, or why they cannot be.
std::variant<SeasonRules, std::string> rules_of(const SeasonOptions& options) {
    SeasonRules rules;
    rules.finalists = options.finalists.value_or(rules.finalists);
    rules.fields = halving_fields(rules.finalists);
    if (options.stages) {
        const auto fields = parse_stages(*options.stages);
        if (!fields)
            return fmt::format(
                "--stages takes the fields of the finals' stages, as 8,4,2; not '{}'",
                escape_for_terminal(*options.stages));
        rules.fields = *fields;
        rules.finalists = options.finalists.value_or(fields->front());  // the first: them all
    }
    rules.deals = options.deals.value_or(rules.deals);
    if (options.sprt) {
        std::vector<std::string> words;
        for (std::string word; const char c : *options.sprt + " ")
            if (c != ' ')
                word += c;
            else if (!word.empty())
                words.push_back(std::exchange(word, {}));
        auto sprt = tournament::parse_sprt(words);
        if (auto* why = std::get_if<std::string>(&sprt))
            return "--finals-" + why->substr(2);
        rules.sprt = std::get<stats::Sprt>(sprt);
    }
    if (options.tiers) {
        std::string why;
        const auto tiers = parse_tiers(*options.tiers, why);
        if (!tiers)
            return "--tiers: " + why;
        rules.tiers = *tiers;
    }
    rules.seed = drawn_seed();
    if (std::string why = check_rules(rules); !why.empty())
        return why;
    return rules;
}

std::string rules_text(const nlohmann::json& rules) {
    std::string stages, tiers;
    for (const auto& f : rules.at("fields"))
        stages += (stages.empty() ? "" : ", ") + f.dump();
    for (const auto& t : rules.at("tiers"))
        tiers += fmt::format("{}{} {}%", tiers.empty() ? "" : ", ", t.at("name").get<std::string>(),
                             t.at("percent").get<double>());
    const auto& s = rules.at("sprt");
    return fmt::format(
        "finals: the best {} of its house and hosted bots, in stages of {}, each at most {} deals "
        "played by every pair both ways; neighbours settled by the SPRT elo0={} elo1={} "
        "alpha={} beta={}\ntiers: {}\n",
        rules.at("finalists").get<int>(), stages, rules.at("deals").get<int>(),
        s.at("elo0").get<double>(), s.at("elo1").get<double>(), s.at("alpha").get<double>(),
        s.at("beta").get<double>(), tiers);
}

void write_board(const nlohmann::json& board, const char* which) {
    const auto& rows = board.at(which);
    if (rows.empty())
        return;
    out.write(fmt::format("{:>3}  {:<20} {:>7} {:>12} {:>7}  {:<10} {}\n", "#",
                          which == std::string("bots") ? "bot" : "person", "rating", "mu +- sigma",
                          "matches", "tier", ""));
    for (const auto& r : rows)
        out.write(fmt::format(
            "{:>3}  {:<20} {:>7.2f} {:>6.2f} +-{:>4.2f} {:>7}  {:<10} {}{}\n",
            r.at("rank").get<int>(), r.at("name").get<std::string>(),
            r.at("conservative").get<double>(), r.at("rating").at("mu").get<double>(),
            r.at("rating").at("sigma").get<double>(), r.at("matches").get<int>(),
            r.at("tier").get<std::string>(), r.at("finalist").get<bool>() ? "finalist" : "",
            r.at("provisional").get<bool>() ? " (provisional)" : ""));
}

void write_finals(const nlohmann::json& finals) {
    out.write(fmt::format("finals: {}, stage {} of {}, {} rounds of it played\n",
                          finals.at("over").get<bool>() ? "over" : "playing",
                          finals.at("stage").get<int>(), finals.at("stages").get<int>(),
                          finals.at("rounds").get<int>()));
    out.write(fmt::format("{:>5}  {:<20} {:>6} {:>6}  {:<26} {}\n", "place", "bot", "share",
                          "games", "against the next", "how sure"));
    for (const auto& p : finals.at("places")) {
        const std::string verdict = p.at("against_next").get<std::string>();
        const std::string said = verdict == "ahead"  ? "ahead"
                                 : verdict == "even" ? "cannot be told apart"
                                 : verdict == "last" ? ""
                                                     : "not settled";
        out.write(fmt::format(
            "{:>5}  {:<20} {:>6.3f} {:>6}  {:<26} {}\n", p.at("place").get<int>(),
            p.at("name").get<std::string>(), p.at("share").get<double>(), p.at("games").get<int>(),
            said,
            verdict == "last"
                ? std::string()
                : fmt::format("{} pairs, LLR {:.2f}, LOS {:.1f}%", p.at("pairs").get<int>(),
                              p.at("llr").get<double>(), 100 * p.at("los").get<double>())));
    }
}

}  // namespace

int season_add(Store& store, const SeasonOptions& options) {
    const std::string now = store.seasons().now();
    const auto closes = season_time(options.closes, now);
    const auto starts =
        options.starts ? season_time(*options.starts, now) : std::optional<std::string>("");
    if (!closes || !starts) {
        log::error(
            "a time is a UTC time (2026-12-24T18:00:00Z, 2026-12-24 18:00, 2026-12-24) "
            "or one from now (+90s, +30m, +2h, +7d), not '{}'",
            escape_for_terminal(!closes ? options.closes : *options.starts));
        return exit_usage;
    }
    auto rules = rules_of(options);
    if (auto* why = std::get_if<std::string>(&rules)) {
        log::error("{}", *why);
        return exit_usage;
    }
    try {
        const Season added =
            store.seasons().add(options.name, *starts, *closes, std::get<SeasonRules>(rules));
        log::info("season {} added: from {} to {}", added.name, added.starts, added.closes);
    } catch (const std::invalid_argument& e) {
        log::error("{}", e.what());
        return exit_usage;
    }
    return exit_done;
}

int season_list(Store& store, bool json) {
    const nlohmann::json all = seasons_json(store);
    if (json) {
        out.write(all.dump(2) + "\n");
        return exit_done;
    }
    out.write(fmt::format("{:<20} {:<7} {:<25} {:<25} {}\n", "season", "state", "starts", "closes",
                          "finalists"));
    for (const auto& s : all.at("seasons"))
        out.write(fmt::format("{:<20} {:<7} {:<25} {:<25} {}\n", s.at("name").get<std::string>(),
                              s.at("state").get<std::string>(), s.at("starts").get<std::string>(),
                              s.at("closes").get<std::string>(), s.at("finalists").get<int>()));
    return exit_done;
}

int season_show(Store& store, const std::string& name, bool json) {
    const auto doc = season_json(store, name);
    if (!doc) {
        log::error("no season is named '{}'", escape_for_terminal(name));
        return exit_usage;
    }
    if (json) {
        out.write(doc->dump(2) + "\n");
        return exit_done;
    }
    const auto& board = doc->at("board");
    out.write(fmt::format("season {}: {}, from {} to {}\n", name,
                          doc->at("state").get<std::string>(), doc->at("starts").get<std::string>(),
                          doc->at("closes").get<std::string>()));
    out.write(rules_text(doc->at("rules")));
    out.write(fmt::format("its board ({}), {} matches:\n",
                          board.at("frozen").get<bool>() ? "frozen at its close" : "as it stands",
                          board.at("matches").get<int>()));
    write_board(board, "bots");
    write_board(board, "people");
    if (doc->at("finals").contains("places"))
        write_finals(doc->at("finals"));
    return exit_done;
}

nlohmann::json rerate_seasons(Store& store, int& differing) {
    nlohmann::json checked = nlohmann::json::array();
    const auto rated = store.rated_in_order();
    const auto bots = store.bots(true);
    const auto entries = store.entries();
    // What a board's rows are judged by: their ratings, places, tiers and finalists.
    const auto rated_of = [](const nlohmann::json& board) {
        nlohmann::json kept = nlohmann::json::array();
        for (const char* which : {"bots", "people"})
            for (const auto& r : board.at(which))
                kept.push_back({r.at("rank"), r.at("name"), r.at("version"), r.at("rating"),
                                r.at("matches"), r.at("tier"), r.at("finalist")});
        return kept;
    };
    for (const Season& season : store.seasons().all()) {
        const auto frozen = store.seasons().frozen(season.id);
        if (!frozen)
            continue;
        const SeasonBoard board = season_board(season, rated, bots, entries, store.model());
        bool same = rated_of(board_json(board, frozen->finalists)) == rated_of(frozen->board);
        if (season.state == "over" && frozen->finalists.size() >= 2)
            same = same && finals_json(finals_of(store, season, frozen->finalists), season.rules,
                                       names_of(bots, entries)) == frozen->standings;
        differing += !same;
        checked.push_back({{"season", season.name}, {"same", same}});
    }
    return checked;
}

}  // namespace bg::arena
