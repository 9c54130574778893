#include "arena/front_seats.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "arena/handed_out.hpp"
#include "arena/opens.hpp"
#include "cli/log.hpp"
#include "core/text.hpp"

namespace bg::arena {

FrontSeats::FrontSeats(Store& store, HandedOut& handed, std::function<void(Input)> feed,
                       std::function<std::uint64_t()> now)
    : store_(store),
      handed_(handed),
      feed_(std::move(feed)),
      now_(std::move(now)),
      outbox_([this](const std::string& front, const nlohmann::json& body) {
          store_.fronts().to_front(front, body);
      }) {}

void FrontSeats::look() {
    if (stopping_)  // what the fronts say now is the next holder's
        return;
    std::map<std::string, int> seen;
    try {
        if (!begun_)
            store_.fronts().begin_holding();
        begun_ = true;
        // The messages first: a front's hello is stored before any message of its own, so that
        // a message's front not seen after it is gone. (Taken, they wait here for the next look
        // if the fronts cannot be read now.)
        for (FrontMail::Message& m : store_.fronts().take_for_holder())
            later_.push_back(std::move(m));
        seen = store_.fronts().seen(worker_seen_ms);
        if (failing_)
            log::info("what the front nodes say is read again");
        failing_ = false;
    } catch (const std::exception& e) {
        if (!failing_)
            log::warning("what the front nodes say cannot be read now: {} (tried again)", e.what());
        failing_ = true;
        return;
    }
    look_at_fronts(seen);
    // In order: those that waited (for their match's end to be read), then what came since. One
    // that waits for the store holds its front's after it, so that they are taken in order.
    std::set<std::string> held;
    for (FrontMail::Message& m : std::exchange(later_, {}))
        if (seen_.count(m.node) && (held.count(m.node) || !take(m))) {
            if (m.body.value("kind", "") != "arrived" || !m.body.value("after", 0))
                held.insert(m.node);
            later_.push_back(std::move(m));
        }
    flush();
}

void FrontSeats::look_at_fronts(const std::map<std::string, int>& seen) {
    if (seen == seen_)
        return;
    const auto before = std::exchange(seen_, seen);
    for (const auto& [node, cores] : before)
        if (!seen.count(node))
            gone(node);
    for (const auto& [node, cores] : seen)
        if (!before.count(node)) {
            log::info("front node {} seats bots and people", escape_for_terminal(node));
            tell(node, {{"kind", "holder"}});  // who waits there (after it was cut off, say)
        }
    // Its tables placed only where it takes matches (not while it backs off: cores -1).
    input::Fronts fronts;
    for (const auto& [node, cores] : seen)
        if (cores >= 0)
            fronts.cores[node] = cores;
    feed_(std::move(fronts));
}

// ---- the names ----

Connection FrontNames::named(const std::string& node, std::uint64_t at_front) {
    if (const auto known = find(node, at_front))
        return *known;
    const Connection connection = next_++;
    by_front_[{node, at_front}] = connection;
    seats_[connection] = Seat{node, at_front};
    return connection;
}

FrontNames::Seat* FrontNames::find(Connection connection) {
    const auto found = seats_.find(connection);
    return found == seats_.end() ? nullptr : &found->second;
}

std::optional<Connection> FrontNames::find(const std::string& node, std::uint64_t at_front) const {
    const auto found = by_front_.find({node, at_front});
    return found == by_front_.end() ? std::nullopt : std::optional<Connection>(found->second);
}

void FrontNames::erase(Connection connection) {
    if (const Seat* seat = find(connection)) {
        by_front_.erase({seat->node, seat->at_front});
        seats_.erase(connection);
    }
}

std::vector<std::pair<Connection, FrontNames::Seat>> FrontNames::take_all(const std::string& node) {
    std::vector<std::pair<Connection, Seat>> all;
    for (const auto& [connection, seat] : seats_)
        if (seat.node == node)
            all.emplace_back(connection, seat);
    for (const auto& [connection, seat] : all)
        erase(connection);
    return all;
}

// ---- what the fronts say ----

bool FrontSeats::take(const FrontMail::Message& m) {
    try {
        const std::string kind = m.body.at("kind").get<std::string>();
        if (kind == "arrived") {
            arrived(m);
            return true;
        }
        const auto at_front = m.body.at("connection").get<std::uint64_t>();
        if (kind == "left")  // an arrival that waited for its match's end is not taken after it
            std::erase_if(later_, [&](const FrontMail::Message& w) {
                return w.node == m.node && w.body.value("connection", std::uint64_t{0}) == at_front;
            });
        const auto found = names_.find(m.node, at_front);
        if (!found)
            return true;
        const Connection connection = *found;
        if (kind == "left") {
            left(connection);
        } else if (kind == "checked") {
            feed_(input::Checked{
                connection, m.body.at("passed").get<bool>(), m.body.at("checks").get<int>(),
                m.body.at("why").get<std::string>(), m.body.at("told").get<std::string>(),
                m.body.value("cut_short", false)});
        }
        return true;
    } catch (const nlohmann::json::exception& e) {
        log::warning("a message of front node {} cannot be read: {}", escape_for_terminal(m.node),
                     e.what());
        return true;
    } catch (const std::exception& e) {
        log::warning("a message of front node {} waits: {}", escape_for_terminal(m.node), e.what());
        return false;
    }
}

void FrontSeats::arrived(const FrontMail::Message& m) {
    const auto at_front = m.body.at("connection").get<std::uint64_t>();
    const auto known = names_.find(m.node, at_front);
    // Said again to a holder that has it already (its arrival read as it began): taken once.
    if (known && m.body.value("again", false))
        return;
    // Back from a match whose end is not yet read: it waits for it.
    if (const int after = m.body.value("after", 0); after && handed_.has(after)) {
        later_.push_back(m);
        return;
    }
    if (known && names_.find(*known)->waiting)
        return;
    auto bot = store_.bot(m.body.at("bot").get<std::string>());
    if (!bot)  // removed since it was let in
        return tell(m.node, {{"kind", "turn_away"}, {"connections", {at_front}}});
    input::Arrived arrived;
    arrived.connection = names_.named(m.node, at_front);
    arrived.bot = std::move(*bot);
    arrived.entry = store_.entry(arrived.bot, m.body.at("label").get<std::string>());
    arrived.opponent = m.body.value("opponent", "");
    arrived.now_ms = now_();
    arrived.node = m.node;
    names_.find(arrived.connection)->waiting = true;
    feed_(std::move(arrived));
}

void FrontSeats::left(Connection connection) {
    FrontNames::Seat& seat = *names_.find(connection);
    if (seat.checking)
        seat.left = true;  // its name kept for its check's outcome, which the core awaits
    else
        names_.erase(connection);
    feed_(input::Left{connection});
}

void FrontSeats::gone(const std::string& node) {
    std::vector<Connection> left, checking;
    for (const auto& [connection, seat] : names_.take_all(node)) {
        if (!seat.left)
            left.push_back(connection);
        if (seat.checking)
            checking.push_back(connection);
    }
    std::erase_if(later_, [&](const auto& m) { return m.node == node; });
    outbox_.drop(node);
    log::info("front node {} is no longer seen: its {} connection{} left",
              escape_for_terminal(node), left.size(), left.size() == 1 ? "" : "s");
    handed_.fronts_gone();
    for (const Connection connection : left)
        feed_(input::Left{connection});
    // A check under way there is cut short: nothing recorded (its bot is checked again as it
    // next connects).
    for (const Connection connection : checking)
        feed_(input::Checked{connection, false, 0, "its front node was gone", "", true});
}

// ---- what the core decides of them ----

bool FrontSeats::perform(Effect& effect) {
    if (const auto* check = std::get_if<effect::Check>(&effect))
        return this->check(*check);
    if (const auto* done = std::get_if<effect::CheckDone>(&effect))
        return check_done(*done);
    if (auto* away = std::get_if<effect::TurnAway>(&effect))
        turn_away(away->connections);
    else if (const auto* over = std::get_if<effect::Over>(&effect))
        this->over(over->record);
    else if (std::holds_alternative<effect::CloseDoors>(effect))
        stopping_ = true;
    return false;
}

void FrontSeats::flush() {
    if (std::string failed; !outbox_.flush(&failed) && !failing_)
        log::warning("the front nodes cannot be told now ({}): tried again", failed);
}

effect::Play FrontSeats::placed(const effect::Play& play) {
    effect::Play at_front = play;
    auto& told = playing_[play.match];
    for (MatchSeat& seat : at_front.seats) {
        FrontNames::Seat* found = seat.command ? nullptr : names_.find(seat.connection);
        if (!found)
            continue;
        found->waiting = false;
        told.emplace_back(found->node, found->at_front, seat.entry.id);
        seat.connection = found->at_front;
    }
    return at_front;
}

void FrontSeats::unplaced(const effect::Play& at_front) {
    std::vector<std::uint64_t> connections;
    for (const MatchSeat& seat : at_front.seats)
        if (!seat.command)
            connections.push_back(seat.connection);
    tell(at_front.node,
         {{"kind", "again"}, {"match", at_front.match}, {"connections", connections}});
}

bool FrontSeats::check(const effect::Check& check) {
    FrontNames::Seat* seat = names_.find(check.connection);
    if (!seat)
        return false;
    seat->waiting = false;
    seat->checking = true;
    tell(seat->node, {{"kind", "check"},
                      {"connection", seat->at_front},
                      {"bot", check.bot.name},
                      {"label", check.entry.label}});
    return true;
}

bool FrontSeats::check_done(const effect::CheckDone& done) {
    FrontNames::Seat* seat = names_.find(done.connection);
    if (!seat)
        return false;
    seat->checking = false;
    if (seat->left)  // gone meanwhile: nothing to tell it
        names_.erase(done.connection);
    else
        tell(seat->node, {{"kind", "check_done"},
                          {"connection", seat->at_front},
                          {"passed", done.passed},
                          {"told", done.told}});
    return true;
}

void FrontSeats::turn_away(std::vector<Connection>& connections) {
    std::map<std::string, std::vector<std::uint64_t>> by_node;
    std::erase_if(connections, [&](Connection connection) {
        FrontNames::Seat* seat = names_.find(connection);
        if (seat) {
            seat->waiting = false;
            by_node[seat->node].push_back(seat->at_front);
        }
        return seat != nullptr;
    });
    // A holder that stops sends no front's connection away: it waits there for the next.
    if (!stopping_)
        for (const auto& [node, at_front] : by_node)
            tell(node, {{"kind", "turn_away"}, {"connections", at_front}});
}

void FrontSeats::over(const MatchRecord& record) {
    const auto found = playing_.find(record.match.id);
    if (found == playing_.end())
        return;
    std::map<std::string, nlohmann::json> by_node;
    for (const auto& [node, at_front, entry] : found->second)
        by_node[node].push_back(
            {{"connection", at_front}, {"message", match_over_json(record, entry)}});
    for (const auto& [node, told] : by_node)
        if (seen_.count(node))  // a front gone has no one to tell
            tell(node, {{"kind", "over"}, {"match", record.match.id}, {"told", told}});
    playing_.erase(found);
}

}  // namespace bg::arena
