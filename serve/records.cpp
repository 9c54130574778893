#include "serve/records.hpp"

namespace bg::serve {

std::string record_event_name(const nlohmann::json& record) {
    if (const auto decision = record.find("decision"); decision != record.end())
        return decision->value("type", "decision");
    for (const char* kind : {"start", "input", "usage", "note", "result"})
        if (record.contains(kind))
            return kind;
    return "record";
}

nlohmann::json with_seed_text(nlohmann::json record) {
    for (const char* kind : {"start", "result"}) {
        const auto part = record.find(kind);
        if (part == record.end() || !part->is_object())
            continue;
        const auto seed = part->find("seed");
        if (seed == part->end())
            continue;
        // An integer's dump is its decimal digits, exact whatever its size.
        nlohmann::json text =
            seed->is_number_integer() ? nlohmann::json(seed->dump()) : nlohmann::json(nullptr);
        (*part)["seed_text"] = std::move(text);
    }
    return record;
}

nlohmann::json without_seed(nlohmann::json record) {
    if (auto start = record.find("start"); start != record.end() && start->contains("seed"))
        (*start)["seed"] = nullptr;
    return with_seed_text(std::move(record));
}

std::string dump_json(const nlohmann::json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace bg::serve
