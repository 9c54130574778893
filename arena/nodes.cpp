#include "arena/nodes.hpp"

#include <algorithm>
#include <csignal>
#include <ctime>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "arena/admin.hpp"
#include "arena/hosting.hpp"
#include "arena/jobs.hpp"
#include "arena/owned.hpp"
#include "arena/web.hpp"
#include "arena/worker.hpp"
#include "cli/log.hpp"
#include "core/text.hpp"
#include "viewer/pages.hpp"

namespace bg::arena {

namespace {

// A front looks at what the holder showed on this clock as well as when notified (a
// notification missed, or SQLite's none), and tries to take the database over as often.
constexpr std::uint64_t front_tick_ms = 1000;
// Its roster (the ratings, the accounts) read again at most this often, and at least this
// often where nothing said it changed (an account added).
constexpr std::uint64_t roster_soonest_ms = 1000;
constexpr std::uint64_t roster_latest_ms = 10'000;
// As it ends, how long its connections have to close once told to come back.
constexpr std::uint64_t close_grace_ms = 5'000;

}  // namespace

StreamStart holder_stream(Published* published) {
    StreamStart start;
    start.number_from = serve::first_id_now();
    try {
        if (published)
            start.kept = published->newest();
    } catch (const std::exception& e) {
        log::warning(
            "the stream's kept events cannot be read ({}): its readers who come back "
            "are sent a snapshot",
            e.what());
    }
    start.first_id = start.kept.empty() ? start.number_from : start.kept.front().event.id;
    return start;
}

StreamStart front_stream(Published& published) {
    StreamStart start;
    start.kept = published.newest();
    // None yet: the holder's first, whatever its id, is the stream's first.
    start.first_id = start.kept.empty() ? 1 : start.kept.front().event.id;
    return start;
}

std::unique_ptr<serve::Server> node_server(uv_loop_t* loop, const serve::Address& address,
                                           serve::Server::Content content,
                                           serve::Server::Limits limits, const StreamStart& start) {
    limits.first_id = start.first_id;
    auto started = serve::Server::start(loop, address, std::move(content), limits);
    if (auto* error = std::get_if<std::string>(&started)) {
        log::error("cannot listen on {}: {}", address.authority(), *error);
        return nullptr;
    }
    auto server = std::move(std::get<std::unique_ptr<serve::Server>>(started));
    // Events the store never had between two kept ones (a holder that could not store them):
    // no reader resumes across them.
    for (std::size_t i = 0; i < start.kept.size(); ++i)
        server->relay(start.kept[i].event,
                      i > 0 && start.kept[i].after != start.kept[i - 1].event.id);
    if (start.number_from)
        server->number_from(start.number_from);
    return server;
}

// ---- the holder's ----

Shows::Shows(serve::Server& server, Published* published, std::function<LiveState()> now,
             const StreamStart& start)
    : server_(server),
      published_(published),
      now_(std::move(now)),
      last_(start.kept.empty() ? 0 : start.kept.back().event.id) {}

void Shows::event(std::string name, std::string data) {
    const std::uint64_t id = server_.publish(name, data);
    if (!published_)
        return;
    waiting_.push_back({{id, std::move(name), std::move(data)}, last_});
    last_ = id;
    if (waiting_.size() > static_cast<std::size_t>(Published::events_kept)) {
        // The next one stored says what it came after: the fronts find the gap.
        waiting_.pop_front();
        if (!overflowed_)
            log::warning(
                "events of the stream were never shown to the front nodes: the store "
                "has not answered for {} of them",
                Published::events_kept);
        overflowed_ = true;
    }
    if (resting_ == 0)
        flush();
}

std::optional<std::string> Shows::changed(bool always) {
    LiveState state = now_();
    if (!always && shown_ && shown_->same_as(state))
        return std::nullopt;
    shown_ = std::move(state);
    return to_json(*shown_).dump();
}

bool Shows::flush() {
    try {
        while (!waiting_.empty()) {
            const auto state = waiting_.size() == 1 ? changed(false) : std::nullopt;
            published_->event(waiting_.front(), state ? &*state : nullptr);
            if (state)
                unchanged_turns_ = 0;
            waiting_.pop_front();
        }
    } catch (const std::exception& e) {
        shown_.reset();  // not known to be stored
        failed(e);
        return false;
    }
    overflowed_ = false;
    return true;
}

void Shows::turn() {
    if (!published_)
        return;
    if (resting_ > 0) {
        --resting_;
        return;
    }
    if (!flush())
        return;
    try {
        if (auto state = changed(++unchanged_turns_ >= heartbeat_turns)) {
            published_->state(*state);
            unchanged_turns_ = 0;
        }
    } catch (const std::exception& e) {
        shown_.reset();
        failed(e);
        return;
    }
    if (failing_)
        log::info("what the arena does is shown to its front nodes again");
    failing_ = false;
}

void Shows::failed(const std::exception& e) {
    if (!failing_)
        log::warning(
            "what the arena does cannot be shown to its front nodes now (the store: {}); its "
            "stream's events wait to be, and it tries again in {} s",
            e.what(), rest_turns / 5);
    failing_ = true;
    resting_ = rest_turns;
}

// ---- a front's ----

FrontNode::FrontNode(Store& store, const Settings& settings, NodeParts parts)
    : store_(store), settings_(settings), parts_(std::move(parts)) {}

FrontNode::~FrontNode() = default;

void FrontNode::read_roster_now() {
    // Its accounts, entries and rated matches as of one moment.
    sql::Transaction snapshot(store_.jobs().connection(), sql::Transaction::Kind::snapshot);
    roster_ = read_roster(store_);
    snapshot.commit();
    roster_at_ = uv_now(loop_);
    roster_stale_ = false;
}

LiveState FrontNode::live() const {
    LiveState state = live_;
    if (!live_text_.empty())
        state.now_ms += uv_now(loop_) - live_at_;  // the holder's clock, moved on as this one
    return state;
}

void FrontNode::take_state(const Published::State& state) {
    live_at_ = uv_now(loop_) - std::min<std::uint64_t>(state.age_ms, uv_now(loop_));
    state_read_ = true;
    if (state.json == live_text_)
        return;
    try {
        live_ = live_state_from(nlohmann::json::parse(state.json));
        live_text_ = state.json;
        unreadable_ = false;
    } catch (const std::exception& e) {
        // Another version's, say: the last one read is shown meanwhile.
        if (!unreadable_)
            log::warning("the holder's live state cannot be read by this front node: {}", e.what());
        unreadable_ = true;
        return;
    }
    // Someone the roster read does not know of yet (an account added since).
    for (const auto& waiting : live_.queue)
        roster_stale_ = roster_stale_ || !roster_.entry(waiting.entry);
}

void FrontNode::read_published() {
    Published& published = store_.published();
    for (auto events = published.events_after(last_event_, 200);;
         events = published.events_after(last_event_, 200)) {
        // The state and the ratings the events came with, before the events.
        if (auto state = published.state())
            take_state(*state);
        const bool rated = std::any_of(events.begin(), events.end(),
                                       [](const auto& e) { return e.event.name == "match"; });
        if (rated || (roster_stale_ && uv_now(loop_) - roster_at_ >= roster_soonest_ms) ||
            uv_now(loop_) - roster_at_ >= roster_latest_ms)
            read_roster_now();
        if (events.empty())
            return;
        for (Published::Stored& stored : events) {
            // Events came between that this front never had (it was cut off longer than the
            // holder keeps them, or the holder could not store some): its readers start again.
            const bool gap = stored.after != last_event_;
            last_event_ = stored.event.id;
            server_->relay(std::move(stored.event), gap);
        }
    }
}

void FrontNode::look() {
    try {
        read_published();
        if (unreached_)
            log::info("the database answers again: this front node shows the arena again");
        unreached_ = false;
    } catch (const std::exception& e) {
        if (!unreached_)
            log::warning(
                "the database cannot be reached: this front node shows what it last read ({}), "
                "and asks again every {} s",
                e.what(), 5 * front_tick_ms / 1000);
        unreached_ = true;
        resting_ = 4;
    }
    if (wake_)
        wake_->rearm();
}

void FrontNode::tick() {
    if (signal_) {
        finish();
        return;
    }
    if (resting_ > 0)
        --resting_;
    else
        look();
    // The holder gone (its state stale, or never stored): the database taken over, if free.
    const bool gone = !state_read_ || uv_now(loop_) - live_at_ >= holder_gone_ms;
    if (!unreached_ && gone) {
        try {
            taken_ = store_.hold_serving();
        } catch (const std::exception&) {
            taken_ = false;  // said by look()
        }
    }
    if (taken_) {
        log::info("taking over: the arena that served this database has ended");
        finish();
        return;
    }
    tick_->start(front_tick_ms);
}

void FrontNode::finish() {
    wake_->stop();
    signals_.clear();
    // Its matches ended and its connections told to come back (to it, or to the holder it is
    // about to be), then its server closed.
    seating_->stop([this] {
        server_->finish(close_grace_ms, [this] { lag_.reset(); });  // its clock the last
    });
}

std::optional<int> FrontNode::start() {
    fit_ = std::make_unique<FitWork>(loop_);
    lag_ = std::make_unique<LoopLag>(loop_, lag_period_ms, lag_threshold_ms, parts_.say_lag);
    seating_ = std::make_unique<FrontSeating>(loop_, store_, settings_, lag_.get());
    if (auto why = seating_->open()) {
        log::error("this front node cannot seat: {}", escape_for_terminal(*why));
        return exit_database;
    }
    read_roster_now();
    routes_ = std::make_unique<ApiRoutes>(
        Running{[this]() -> const Roster& { return roster_; }, [this] { return live(); },
                [this] { return store_.matchmaker(); }, &store_, fit_.get(), nullptr, lag_.get(),
                [this] { return server_->counts(); }, started_, "front"});
    const std::string hosting =
        hosting_json(settings_.hosting, settings_.players.limits, settings_.core.cores).dump();
    serve::Server::Content content;
    content.title = "arena (front node)";
    content.snapshot = [this] { return routes_->leaderboard(false).dump(); };
    content.page = [] { return viewer::arena_board_page(); };
    content.pages = [this](const std::string& path) {
        const LoopLag::Scope scope(lag_.get(), "GET a page");
        return arena_page(store_, path, parts_.chart_js);
    };
    content.public_stream = true;
    // Bots at /bot and people at /person, seated here.
    seating_->serve(content);
    content.api = [this, hosting](const std::string& path) -> std::optional<std::string> {
        if (path == "/api/hosting")
            return hosting;
        const LoopLag::Scope scope(lag_.get(), routes_->route_of(path));
        return routes_->answer(path);
    };
    content.owned = [this](const std::string& path, const std::string& authorization,
                           const std::string& peer) {
        return owned_answer(path, authorization, peer, store_, seating_->door());
    };
    const StreamStart stream = front_stream(store_.published());
    server_ = node_server(loop_, settings_.listen, std::move(content), parts_.limits, stream);
    if (!server_)
        return exit_database;
    if (!stream.kept.empty())
        last_event_ = stream.kept.back().event.id;
    // The holder's stream and state (a match begun among them: one to claim here, at once).
    wake_ = std::make_unique<Wake>(loop_, store_.jobs().connection(), Published::channel, [this] {
        look();
        seating_->soon();
    });
    tick_ = std::make_unique<Timer>(loop_, [this] { tick(); });
    for (const int signum : {SIGTERM, SIGINT})
        signals_.emplace_back(loop_, signum, [this](int s) {
            signal_ = s;
            tick_->start(0);  // not from within its own watch: signals_ is cleared there
        });
    serve::Address shown = settings_.listen;
    shown.port = server_->port();
    port_ = server_->port();
    log::info(
        "listening on http://{}/ as a front node: another arena holds this database; this one "
        "shows it (the pages, the API, the stream), seats bots (ws://{}/bot) and people (/play) "
        "for matches it plays, and takes over, here, as the holder ends (SIGTERM or SIGINT: no "
        "longer)",
        shown.authority(), shown.authority());
    seating_->start(fmt::format("{}:{}", host_name(), port_));
    look();
    tick_->start(front_tick_ms);
    return std::nullopt;
}

std::variant<bool, int> FrontNode::run() {
    started_ = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
    EventLoop loop;
    loop_ = loop.get();
    struct Release {
        FrontNode& node;
        EventLoop& loop;
        ~Release() {
            node.signals_.clear();
            node.wake_.reset();
            node.tick_.reset();
            node.server_.reset();
            node.seating_.reset();
            node.routes_.reset();
            node.lag_.reset();
            node.fit_.reset();
            loop.run();
        }
    } release{*this, loop};
    try {
        if (auto status = start())
            return *status;
    } catch (const std::exception& e) {
        log::error("the database cannot be read: {}", e.what());
        return exit_database;
    }
    loop.run();
    return taken_;
}

}  // namespace bg::arena
