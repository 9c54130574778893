// Events as JSON objects, the records of the event log. Reading is strict: a record that is not
// exactly what writing makes is refused with a reason, so an edited log is noticed.
#pragma once

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/events.hpp"
#include "record/result.hpp"

namespace bg {

// As a log of `version` holds them: from version 8, a `gone` input and a `disqualified`
// decision say the way out's code (core/out_code.hpp) beside its reason.
nlohmann::json to_json(const Input& input, int version = log_version);
nlohmann::json to_json(const Decision& decision, int version = log_version);

// The input or decision a record's object holds, or why it is not one. A way out in a log
// before version 8 has its code from its reason's sentence.
std::variant<Input, std::string> input_from_json(const nlohmann::json& object,
                                                 int version = log_version);
std::variant<Decision, std::string> decision_from_json(const nlohmann::json& object,
                                                       int version = log_version);

// A usage record's object: {"player", "cpu_ns", "memory_peak_bytes"}, each measure a number or
// null.
// `remote` is written from log version 6 on (null for a process); `cpu_wait_ns` and
// `cpu_wait_note` from version 7 (a missing wait always says why). Read as the log's version has
// them: no more keys, and no fewer.
nlohmann::json usage_json(PlayerId player, const PlayerUsage& usage, int version = log_version);
std::variant<std::pair<PlayerId, PlayerUsage>, std::string> usage_from_json(
    const nlohmann::json& object, int version = log_version);

}  // namespace bg
