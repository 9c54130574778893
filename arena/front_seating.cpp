#include "arena/front_seating.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "arena/door.hpp"
#include "arena/front_mail.hpp"
#include "arena/handed_out.hpp"
#include "arena/serve.hpp"
#include "arena/tickets.hpp"
#include "core/text.hpp"
#include "remote/token.hpp"

namespace bg::arena {

namespace {

// How often a front says it is there (the holder counts it gone after worker_seen_ms).
constexpr std::uint64_t hello_every_ms = 1000;

}  // namespace

FrontSeating::FrontSeating(uv_loop_t* loop, Store& store, const Settings& settings, LoopLag* lag)
    : loop_(loop),
      store_(store),
      settings_(settings),
      lag_(lag),
      outbox_([this](const std::string&, const nlohmann::json& body) {
          store_.fronts().to_holder(name_, body);
      }) {}

FrontSeating::~FrontSeating() = default;

std::optional<std::string> FrontSeating::open() {
    // No player may read the store's secrets, a log or another bot's files (those of the
    // hosted versions, fetched into the cache).
    const std::string cache = (std::filesystem::path(settings_.logs) / ".front-cache").string();
    std::error_code error;
    std::filesystem::create_directories(cache, error);
    if (error)
        return fmt::format("{} cannot be made: {}", cache, error.message());
    std::vector<std::string> secret_paths = store_.private_paths();
    secret_paths.push_back(cache);
    auto opened = Venue::open(
        players_plan(settings_.players, settings_.game.dictionary, settings_.logs, secret_paths));
    if (auto* why = std::get_if<std::string>(&opened))
        return *why;
    venue_ = std::move(std::get<std::unique_ptr<Venue>>(opened));
    if (auto why = venue_->prepare_players())
        return *why;
    settings_.game.dictionary_fingerprint = venue_->dictionary().stats().fingerprint;
    const auto now = [this] { return uv_now(loop_); };
    lobby_ = std::make_unique<Lobby>(store_, desk_, now, settings_.lobby);
    lobby_->on_note = [](const std::string& line) { log::info("{}", line); };
    lobby_->on_arrive = [this](const Arrival& a) { arrived(a); };
    lobby_->on_leave = [this](Connection connection) {
        waiting_.erase(connection);
        last_match_.erase(connection);
        to_holder({{"kind", "left"}, {"connection", connection}});
    };
    lobby_->lag = lag_;
    checks_ = std::make_unique<Checks>(loop_, desk_, *lobby_, venue_->dictionary(), settings_.game,
                                       settings_.check_move_ms, [this](const input::Checked& c) {
                                           to_holder({{"kind", "checked"},
                                                      {"connection", c.connection},
                                                      {"passed", c.passed},
                                                      {"checks", c.checks},
                                                      {"why", c.why},
                                                      {"told", c.told}});
                                       });
    sockets_ = std::make_unique<remote::SeatSockets>(
        *lobby_, rules_for_players(settings_, venue_->dictionary()));
    play_ = std::make_unique<FrontPlay>(
        loop_, store_, *venue_, *lobby_, desk_, settings_, lag_, cache,
        FrontPlay::Told{[this](Connection c, int match) {
                            waiting_.erase(c);
                            last_match_[c] = match;
                        },
                        [this](const std::vector<Connection>& connections, int match) {
                            not_played(connections, match);
                        }});
    return std::nullopt;
}

void FrontSeating::serve(serve::Server::Content& content) {
    content.sockets = sockets_.get();
    content.closing = restarting_refusal();
    content.for_players = rules_for_players(settings_, venue_->dictionary());
    serve_people(content, settings_.lobby.people_open, *lobby_, lobby_->door().tickets(), lag_);
}

void FrontSeating::start(const std::string& address) {
    name_ = fmt::format("{}#{}", address, remote::draw_token().substr(0, 8));
    turn_.emplace(loop_, [this] { turn(); });
    turn_->start(0);
}

void FrontSeating::to_holder(nlohmann::json body) {
    outbox_.push("", std::move(body));
    flush();
}

void FrontSeating::flush() {
    // Only while the holder sees this front (its hello fresh): one it counts gone drops them.
    if (known_ && uv_now(loop_) < hello_ms_ + worker_seen_ms / 2)
        with_store_("telling the holder", [&] {
            std::string failed;
            if (!outbox_.flush(&failed))
                throw std::runtime_error(failed);
        });
}

void FrontSeating::arrived(const Arrival& a, bool again) {
    waiting_[a.connection] = a;
    const auto last = last_match_.find(a.connection);
    nlohmann::json body = {
        {"kind", "arrived"},      {"connection", a.connection},
        {"bot", a.bot.name},      {"label", a.entry.label},
        {"opponent", a.opponent}, {"after", last == last_match_.end() ? 0 : last->second}};
    if (again)
        body["again"] = true;
    to_holder(std::move(body));
}

void FrontSeating::turn() {
    const std::uint64_t now = uv_now(loop_);
    // Its cores; -1 while it backs off (no match placed here: one could not be played).
    const int cores = play_->backing_off() ? -1 : settings_.core.cores;
    if ((!known_ || now >= hello_ms_ + hello_every_ms) && !stopping_ &&
        with_store_("saying it is there", [&] { store_.fronts().hello(name_, cores); })) {
        if (!known_)
            log::info("seating as front node {}", name_);
        known_ = true;
        hello_ms_ = now;
    }
    flush();
    // What waited for the store first (in order), then what came.
    with_store_("reading the holder's messages", [&] {
        for (nlohmann::json& body : store_.fronts().take_for(name_))
            from_holder_.push_back(std::move(body));
    });
    for (; !from_holder_.empty(); from_holder_.pop_front()) {
        try {
            from_holder(from_holder_.front());
        } catch (const nlohmann::json::exception& e) {
            log::warning("a message of the holder cannot be read: {}", e.what());
        } catch (const std::exception& e) {  // the store, for a check: tried again
            log::warning("a message of the holder waits: {}", e.what());
            break;
        }
    }
    lobby_->expire();
    play_->turn(name_);
    if (!stopping_)
        turn_->start(turn_ms);
}

void FrontSeating::from_holder(const nlohmann::json& body) {
    const std::string kind = body.at("kind").get<std::string>();
    if (kind == "holder") {
        // A holder that begins, or that sees this front again: told who waits; the checks under
        // way cut short (their outcomes would reach no one), their connections waiting again.
        const auto waiting = waiting_;
        for (const auto& [connection, a] : waiting)
            arrived(a, true);
        checks_->cancel();
    } else if (kind == "again") {
        // A match the holder could not hand out: its connections wait again, after it.
        not_played(body.at("connections").get<std::vector<Connection>>(),
                   body.at("match").get<int>());
    } else if (kind == "check") {
        const Connection connection = body.at("connection").get<Connection>();
        waiting_.erase(connection);
        auto bot = store_.bot(body.at("bot").get<std::string>());
        if (!bot)  // gone from the store since: nothing to check
            return lobby_->turn_away({connection});
        const Entry entry = store_.entry(*bot, body.at("label").get<std::string>());
        if (!checks_->start(effect::Check{connection, std::move(*bot), entry}))  // gone since
            to_holder({{"kind", "checked"},
                       {"connection", connection},
                       {"passed", false},
                       {"checks", 0},
                       {"why", "its connection closed before its check began"},
                       {"told", ""},
                       {"cut_short", true}});
    } else if (kind == "check_done") {
        checks_->done(effect::CheckDone{body.at("connection").get<Connection>(),
                                        body.at("passed").get<bool>(),
                                        body.at("told").get<std::string>()});
    } else if (kind == "turn_away") {
        const auto connections = body.at("connections").get<std::vector<Connection>>();
        for (const Connection c : connections)
            waiting_.erase(c);
        lobby_->turn_away(connections);
    } else if (kind == "over") {
        std::map<Connection, nlohmann::json> messages;
        for (const auto& told : body.at("told"))
            messages[told.at("connection").get<Connection>()] = told.at("message");
        lobby_->tell_over(body.at("match").get<int>(), [&messages](Connection c, int) {
            const auto found = messages.find(c);
            return found == messages.end() ? std::nullopt
                                           : std::optional<nlohmann::json>(found->second);
        });
    }
}

void FrontSeating::not_played(const std::vector<Connection>& connections, int match) {
    for (const Connection c : connections)
        if (const auto found = waiting_.find(c); found != waiting_.end()) {
            last_match_[c] = match;
            arrived(Arrival(found->second));
        }
}

void FrontSeating::stop(std::function<void()> done) {
    if (stopping_)
        return;
    stopping_ = true;
    if (turn_)
        turn_->stop();
    // No more matches placed here; its connections (those its checks let go too) told to
    // come back.
    if (known_)
        with_store_("saying goodbye", [&] { store_.fronts().goodbye(name_); });
    lobby_->close();
    checks_->cancel();
    play_->stop([this, done = std::move(done)] {
        flush();  // what cannot be said now is no one's: the holder counts this front gone
        lobby_->finish();
        done();
    });
}

}  // namespace bg::arena
