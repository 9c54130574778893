#include "serve/records.hpp"

namespace bg::serve {

std::string record_event_name(const nlohmann::json& record) {
    if (const auto decision = record.find("decision"); decision != record.end())
        return decision->value("type", "decision");
    for (const char* kind : {"start", "input", "usage", "result"})
        if (record.contains(kind))
            return kind;
    return "record";
}

nlohmann::json without_seed(nlohmann::json record) {
    if (auto start = record.find("start"); start != record.end() && start->contains("seed"))
        (*start)["seed"] = nullptr;
    return record;
}

std::string dump_json(const nlohmann::json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace bg::serve
