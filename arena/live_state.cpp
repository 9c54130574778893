#include "arena/live_state.hpp"

namespace bg::arena {

bool LiveState::same_as(const LiveState& other) const {
    return queue == other.queue && playing == other.playing && statuses == other.statuses &&
           recent == other.recent && checking == other.checking && unrecorded == other.unrecorded &&
           writable == other.writable;
}

LiveState live_state(const ArenaCore& core, const std::function<int(int match)>& games_over) {
    LiveState state;
    for (const ArenaCore::Queued& q : core.queue())
        state.queue.push_back({q.bot, q.entry, q.since_ms, q.opponent});
    for (const auto& [id, match] : core.playing())
        state.playing.push_back({id, names_of(match.seats), games_over(id)});
    state.statuses = core.statuses();
    for (const Match& m : core.last_over())
        state.recent.push_back({m.id, m.state, m.finished});
    state.checking = core.checking();
    state.unrecorded = core.unrecorded();
    state.writable = core.writable();
    state.now_ms = core.now_ms();
    return state;
}

nlohmann::json to_json(const LiveState& state) {
    nlohmann::json queue = nlohmann::json::array(), playing = nlohmann::json::array(),
                   recent = nlohmann::json::array(), statuses = nlohmann::json::object();
    for (const auto& w : state.queue)
        queue.push_back({{"bot", w.bot},
                         {"entry", w.entry},
                         {"since_ms", w.since_ms},
                         {"opponent", w.opponent}});
    for (const auto& p : state.playing)
        playing.push_back({{"match", p.match}, {"bots", p.bots}, {"games_over", p.games_over}});
    for (const auto& [id, status] : state.statuses)
        statuses[std::to_string(id)] = status;
    for (const auto& o : state.recent)
        recent.push_back({{"match", o.match}, {"state", o.state}, {"finished", o.finished}});
    return {{"queue", std::move(queue)},       {"playing", std::move(playing)},
            {"statuses", std::move(statuses)}, {"recent", std::move(recent)},
            {"checking", state.checking},      {"unrecorded", state.unrecorded},
            {"writable", state.writable},      {"now_ms", state.now_ms}};
}

LiveState live_state_from(const nlohmann::json& j) {
    LiveState state;
    for (const auto& w : j.at("queue"))
        state.queue.push_back({w.at("bot").get<int>(), w.at("entry").get<int>(),
                               w.at("since_ms").get<std::uint64_t>(),
                               w.at("opponent").get<std::string>()});
    for (const auto& p : j.at("playing"))
        state.playing.push_back({p.at("match").get<int>(),
                                 p.at("bots").get<std::vector<std::string>>(),
                                 p.at("games_over").get<int>()});
    for (const auto& [id, status] : j.at("statuses").items())
        state.statuses[std::stoi(id)] = status.get<std::string>();
    for (const auto& o : j.at("recent"))
        state.recent.push_back({o.at("match").get<int>(), o.at("state").get<std::string>(),
                                o.at("finished").get<std::string>()});
    state.checking = j.at("checking").get<std::size_t>();
    state.unrecorded = j.at("unrecorded").get<std::size_t>();
    state.writable = j.at("writable").get<bool>();
    state.now_ms = j.at("now_ms").get<std::uint64_t>();
    return state;
}

}  // namespace bg::arena
