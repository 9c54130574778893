#include "record/replay.hpp"

#include <deque>
#include <optional>

#include <fmt/format.h>

#include "core/game.hpp"
#include "record/event_json.hpp"
#include "record/live_lines.hpp"
#include "record/setup.hpp"

namespace bg {

using nlohmann::json;

namespace {

std::string decision_text(const Decision& d) {
    return to_json(d).dump();
}

// The player an input is of (0 for one of no player's).
PlayerId player_of(const Input& input) {
    return std::visit(
        [](const auto& e) -> PlayerId {
            if constexpr (requires { e.player; })
                return e.player;
            return 0;
        },
        input);
}

// A log read record by record: each is checked against the game the records before it made.
// Every method answers "" when the record is the one due, or what is wrong with it.
class Replay {
  public:
    Replay(const DictionaryFinder& find_dictionary, const ReplayLines& lines)
        : find_dictionary_(find_dictionary), lines_(lines) {}

    std::string record(const json& record, std::uint64_t t);
    // Once every record is read: the result, or why the log has none.
    bool has_result() const { return result_.has_value(); }
    Replayed replayed() const { return {*result_, setup_->version}; }

  private:
    std::string start(const json& start);
    std::string note(const json& note) const;
    std::string input(const json& input, std::uint64_t t);
    std::string decision(const json& decision);
    std::string usage(const json& usage);
    std::string result(const json& result);

    const DictionaryFinder& find_dictionary_;
    const ReplayLines& lines_;
    std::optional<GameSetup> setup_;
    std::optional<Game> game_;
    std::deque<Decision> expected_;  // the decisions the inputs so far led to, not yet read
    // Version 2: each player's usage, once the game is over.
    std::vector<std::optional<PlayerUsage>> usage_;
    RaceClock race_;
    std::optional<GameResult> result_;
};

std::string Replay::record(const json& record, std::uint64_t t) {
    if (!setup_) {
        if (!record.contains("start"))
            return "the log does not begin with a start record";
        return start(record["start"]);
    }
    if (record.contains("note"))
        return note(record["note"]);
    if (record.contains("input"))
        return input(record["input"], t);
    if (record.contains("decision"))
        return decision(record["decision"]);
    if (record.contains("usage"))
        return usage(record["usage"]);
    if (record.contains("result"))
        return result(record["result"]);
    return "unknown record";
}

std::string Replay::start(const json& start) {
    auto parsed = setup_from_json(start);
    if (auto* error = std::get_if<std::string>(&parsed))
        return *error;
    setup_ = std::get<GameSetup>(parsed);
    auto dict = find_dictionary_(*setup_);
    if (auto* error = std::get_if<std::string>(&dict))
        return *error;
    std::string error;
    game_ = Game::create(setup_->game, *std::get<const Dictionary*>(dict), &error);
    if (!game_)
        return error;
    usage_.resize(setup_->commands.size());
    return "";
}

// A note (log version 6) changes nothing in the game: checked, and passed over.
std::string Replay::note(const json& note) const {
    if (setup_->version < 6)
        return fmt::format("a note record in a log of version {}", setup_->version);
    const bool seat_ok =
        note.is_object() && note.contains("player") &&
        (note["player"].is_null() || (note["player"].is_number_unsigned() &&
                                      note["player"].get<std::size_t>() < setup_->commands.size()));
    if (!seat_ok || note.size() != 2 || !note.contains("what") || !note["what"].is_string())
        return "not a note record (player, what)";
    return "";
}

std::string Replay::input(const json& record, std::uint64_t t) {
    if (!expected_.empty())
        return "an input where the decision " + decision_text(expected_.front()) + " was due";
    auto parsed = input_from_json(record, setup_->version);
    if (auto* error = std::get_if<std::string>(&parsed))
        return "bad input: " + *error;
    const Input& input = std::get<Input>(parsed);
    if (std::holds_alternative<input::StallTimeout>(input) && setup_->version < 4)
        return fmt::format("a stall timeout in a log of version {}, whose host had none",
                           setup_->version);
    const PlayerId player = player_of(input);
    if (player < 0 || player >= setup_->game.players)
        return fmt::format("no player {}", player);
    for (auto& d : game_->handle(input)) {
        if (lines_)
            lines_(t, live_line(d, *game_));
        expected_.push_back(std::move(d));
    }
    race_.after(*game_, t);
    return "";
}

std::string Replay::decision(const json& record) {
    auto parsed = decision_from_json(record, setup_->version);
    if (auto* error = std::get_if<std::string>(&parsed))
        return "bad decision: " + *error;
    if (expected_.empty())
        return "a decision no input led to: " + record.dump();
    if (!(std::get<Decision>(parsed) == expected_.front()))
        return fmt::format("the log says {}, the rules decide {}", record.dump(),
                           decision_text(expected_.front()));
    expected_.pop_front();
    return "";
}

std::string Replay::usage(const json& record) {
    if (setup_->version < 2)
        return fmt::format("a usage record in a log of version {}", setup_->version);
    if (!expected_.empty() || !game_->over())
        return "a usage record before the game was over";
    auto parsed = usage_from_json(record, setup_->version);
    if (auto* error = std::get_if<std::string>(&parsed))
        return *error;
    const auto& [player, used] = std::get<std::pair<PlayerId, PlayerUsage>>(parsed);
    if (player < 0 || player >= setup_->game.players)
        return fmt::format("no player {}", player);
    if (usage_[static_cast<std::size_t>(player)])
        return fmt::format("player {}'s usage twice", player);
    usage_[static_cast<std::size_t>(player)] = used;
    return "";
}

std::string Replay::result(const json& record) {
    if (!expected_.empty() || !game_->over())
        return "a result before the game was over";
    std::vector<PlayerUsage> used;
    for (std::size_t i = 0; i < usage_.size(); ++i) {
        if (setup_->version >= 2 && !usage_[i])
            return fmt::format("the result before player {}'s usage", i);
        used.push_back(usage_[i].value_or(PlayerUsage{}));
    }
    result_ = game_result(*setup_, *game_, used, race_.ns());
    if (record != to_json(*result_, setup_->version))
        return "the logged result differs from the replayed one";
    return "";
}

// Why a line is not a record (seq, t and one event) due after `last_t` as line `number`, or "".
std::string framing_problem(const json& record, std::size_t number, std::uint64_t last_t) {
    if (record.is_discarded() || !record.is_object())
        return "not a JSON object";
    if (record.size() != 3 || !record.contains("seq") || !record.contains("t") ||
        !record["seq"].is_number_unsigned() || !record["t"].is_number_unsigned())
        return "not a record (seq, t and one event)";
    if (record["seq"].get<std::uint64_t>() != number - 1)
        return fmt::format("sequence number {} where {} was due", record["seq"].dump(), number - 1);
    if (record["t"].get<std::uint64_t>() < last_t)
        return "time goes backwards";
    return "";
}

}  // namespace

std::variant<Replayed, std::string> replay_log(std::istream& in,
                                               const DictionaryFinder& find_dictionary,
                                               const ReplayLines& lines) {
    Replay replay(find_dictionary, lines);
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
        if (replay.has_result())
            return where("a record after the result");
        const json record = json::parse(line, nullptr, false);
        if (record.is_discarded() && in.eof())
            return where("cut off in the middle of a record");
        if (auto problem = framing_problem(record, line_number, last_t); !problem.empty())
            return where(problem);
        last_t = record["t"].get<std::uint64_t>();
        if (auto problem = replay.record(record, last_t); !problem.empty())
            return where(problem);
    }
    if (line_number == 0)
        return std::string("the log is empty");
    if (!ended_with_newline)
        return fmt::format("log line {}: cut off (no end of line)", line_number);
    if (!replay.has_result())
        return fmt::format("the log ends after line {} before the game's result (cut off?)",
                           line_number);
    return replay.replayed();
}

}  // namespace bg
