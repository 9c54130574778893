#include "record/replay.hpp"

#include <deque>
#include <optional>

#include <fmt/format.h>

#include "core/game.hpp"
#include "record/event_json.hpp"
#include "record/live_lines.hpp"
#include "record/result.hpp"
#include "record/setup.hpp"

namespace bg {

using nlohmann::json;

namespace {

std::string decision_text(const Decision& d) {
    return to_json(d).dump();
}

// Why a note record (log version 6) is not one of this log's, or nullopt.
std::optional<std::string> note_problem(const json& note, const GameSetup& setup) {
    if (setup.version < 6)
        return fmt::format("a note record in a log of version {}", setup.version);
    const bool seat_ok =
        note.is_object() && note.contains("player") &&
        (note["player"].is_null() || (note["player"].is_number_unsigned() &&
                                      note["player"].get<std::size_t>() < setup.commands.size()));
    if (!seat_ok || note.size() != 2 || !note.contains("what") || !note["what"].is_string())
        return std::string("not a note record (player, what)");
    return std::nullopt;
}

}  // namespace

std::variant<json, std::string> replay_log(std::istream& in,
                                           const DictionaryFinder& find_dictionary,
                                           const ReplayLines& lines) {
    std::optional<GameSetup> setup;
    std::optional<Game> game;
    std::deque<Decision> expected;
    std::optional<json> result;
    // Version 2: each player's usage, once the game is over.
    std::vector<std::optional<PlayerUsage>> usage;
    RaceClock race;
    std::uint64_t last_t = 0;
    std::size_t line_number = 0;
    std::string line;
    bool ended_with_newline = true;

    while (std::getline(in, line)) {
        ++line_number;
        ended_with_newline = !in.eof();
        const auto where = [&](const std::string& what) {
            return fmt::format("log line {}: {}", line_number, what);
        };
        if (result)
            return where("a record after the result");
        json record = json::parse(line, nullptr, false);
        if (record.is_discarded() && in.eof())
            return where("cut off in the middle of a record");
        if (record.is_discarded() || !record.is_object())
            return where("not a JSON object");
        if (record.size() != 3 || !record.contains("seq") || !record.contains("t") ||
            !record["seq"].is_number_unsigned() || !record["t"].is_number_unsigned())
            return where("not a record (seq, t and one event)");
        if (record["seq"].get<std::uint64_t>() != line_number - 1)
            return where(fmt::format("sequence number {} where {} was due", record["seq"].dump(),
                                     line_number - 1));
        const auto t = record["t"].get<std::uint64_t>();
        if (t < last_t)
            return where("time goes backwards");
        last_t = t;

        if (!setup) {
            if (!record.contains("start"))
                return where("the log does not begin with a start record");
            auto parsed = setup_from_json(record["start"]);
            if (auto* error = std::get_if<std::string>(&parsed))
                return where(*error);
            setup = std::get<GameSetup>(parsed);
            auto dict = find_dictionary(*setup);
            if (auto* error = std::get_if<std::string>(&dict))
                return where(*error);
            std::string error;
            game = Game::create(setup->game, *std::get<const Dictionary*>(dict), &error);
            if (!game)
                return where(error);
            usage.resize(setup->commands.size());
            continue;
        }
        if (record.contains("note")) {
            // Notes change nothing in the game: read, and passed over.
            if (auto problem = note_problem(record["note"], *setup))
                return where(*problem);
            continue;
        }
        if (record.contains("input")) {
            if (!expected.empty())
                return where("an input where the decision " + decision_text(expected.front()) +
                             " was due");
            auto parsed = input_from_json(record["input"], setup->version);
            if (auto* error = std::get_if<std::string>(&parsed))
                return where("bad input: " + *error);
            const Input& input = std::get<Input>(parsed);
            if (std::holds_alternative<input::StallTimeout>(input) && setup->version < 4)
                return where(fmt::format(
                    "a stall timeout in a log of version {}, whose host had none", setup->version));
            const PlayerId player = std::visit(
                [](const auto& e) -> PlayerId {
                    if constexpr (requires { e.player; })
                        return e.player;
                    return 0;
                },
                input);
            if (player < 0 || player >= setup->game.players)
                return where(fmt::format("no player {}", player));
            for (auto& d : game->handle(input)) {
                if (lines)
                    lines(t, live_line(d, *game));
                expected.push_back(std::move(d));
            }
            race.after(*game, t);
        } else if (record.contains("decision")) {
            auto parsed = decision_from_json(record["decision"], setup->version);
            if (auto* error = std::get_if<std::string>(&parsed))
                return where("bad decision: " + *error);
            if (expected.empty())
                return where("a decision no input led to: " + record["decision"].dump());
            if (!(std::get<Decision>(parsed) == expected.front()))
                return where(fmt::format("the log says {}, the rules decide {}",
                                         record["decision"].dump(),
                                         decision_text(expected.front())));
            expected.pop_front();
        } else if (record.contains("usage")) {
            if (setup->version < 2)
                return where(fmt::format("a usage record in a log of version {}", setup->version));
            if (!expected.empty() || !game->over())
                return where("a usage record before the game was over");
            auto parsed = usage_from_json(record["usage"], setup->version);
            if (auto* error = std::get_if<std::string>(&parsed))
                return where(*error);
            const auto& [player, used] = std::get<std::pair<PlayerId, PlayerUsage>>(parsed);
            if (player < 0 || player >= setup->game.players)
                return where(fmt::format("no player {}", player));
            if (usage[static_cast<std::size_t>(player)])
                return where(fmt::format("player {}'s usage twice", player));
            usage[static_cast<std::size_t>(player)] = used;
        } else if (record.contains("result")) {
            if (!expected.empty() || !game->over())
                return where("a result before the game was over");
            std::vector<PlayerUsage> used;
            for (std::size_t i = 0; i < usage.size(); ++i) {
                if (setup->version >= 2 && !usage[i])
                    return where(fmt::format("the result before player {}'s usage", i));
                used.push_back(usage[i].value_or(PlayerUsage{}));
            }
            result = result_json(*setup, *game, used, race.ns());
            if (record["result"] != *result)
                return where("the logged result differs from the replayed one");
        } else {
            return where("unknown record");
        }
    }
    if (line_number == 0)
        return std::string("the log is empty");
    if (!ended_with_newline)
        return fmt::format("log line {}: cut off (no end of line)", line_number);
    if (!result)
        return fmt::format("the log ends after line {} before the game's result (cut off?)",
                           line_number);
    return *result;
}

}  // namespace bg
