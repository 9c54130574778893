// The arena's nodes over one PostgreSQL database (docs/arena.md, "Front nodes"). One node holds
// the database (its lock: arena/store.hpp's hold_serving) and runs the core, the matchmaker, the
// ratings and the seats; it shows the others what it does (arena/published.hpp): each event of
// its stream under its id, and its live state. A front node, `arena serve --standby` at an
// address of its own, answers the pages, the API and the stream from the store and what the
// holder showed, the same as the holder answers them, and takes the database over as the holder
// ends. A front seats remote bots and people too (arena/front_seating.hpp): the holder's core
// matches them, and the front plays their matches.
#pragma once

#include <uv.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arena/api_routes.hpp"
#include "arena/door.hpp"
#include "arena/front_seating.hpp"
#include "arena/live_state.hpp"
#include "arena/published.hpp"
#include "arena/settings.hpp"
#include "arena/store.hpp"
#include "arena/wake.hpp"
#include "serve/server.hpp"
#include "transport/handles.hpp"
#include "transport/loop_lag.hpp"

namespace bg::arena {

// Where the stream of a node that starts begins: with the newest events its holders published
// still kept (for the readers that come back with a Last-Event-ID), its own numbered on from
// them.
struct StreamStart {
    std::uint64_t first_id = 0;           // serve::Server::Limits::first_id
    std::vector<Published::Stored> kept;  // to relay first (a gap among them marked as such)
    std::uint64_t number_from = 0;        // a holder's own events: from here (0: a front's)
};
// A holder's: after the kept ones, from the time now (above any id its predecessor gave).
// Without `published` (SQLite: one node), or where the store cannot answer (said): none kept,
// numbered from the time now.
StreamStart holder_stream(Published* published);
// A front's: the kept ones; numbered by the holder.
StreamStart front_stream(Published& published);
// A node's server listening at `address`, its stream begun as `start` says (the kept events
// relayed, its own numbered from where it says); none where it cannot listen (said).
std::unique_ptr<serve::Server> node_server(uv_loop_t* loop, const serve::Address& address,
                                           serve::Server::Content content,
                                           serve::Server::Limits limits, const StreamStart& start);

// The holder's side: each event of its stream published with the live state it came with, and
// the live state as it changes (and once a second as it is: how its fronts know it holds the
// database still). Where the store cannot answer, the events wait (the newest
// Published::events_kept of them) and are stored in order once it answers again; it is asked
// again only after a rest, so that a store that is gone does not hold the loop every turn.
class Shows {
  public:
    // `published` none: the store is no one else's (SQLite), and nothing is shown. `now` draws
    // the live state; `start` is where the holder's stream began.
    Shows(serve::Server& server, Published* published, std::function<LiveState()> now,
          const StreamStart& start);
    void event(std::string name, std::string data);
    // Each turn of the arena's clock (200 ms): the events that wait stored, then the state.
    void turn();
    static constexpr int rest_turns = 25;      // after a failure: 5 s of turns
    static constexpr int heartbeat_turns = 5;  // the state stored at least once a second

  private:
    // The events that wait, stored in order (the last with the state, where it changed);
    // whether all are.
    bool flush();
    // The state now where it changed, or `always`.
    std::optional<std::string> changed(bool always);
    void failed(const std::exception& e);

    serve::Server& server_;
    Published* published_;
    std::function<LiveState()> now_;
    std::uint64_t last_ = 0;  // the id of the stream's last event (0: none yet)
    std::deque<Published::Stored> waiting_;
    std::optional<LiveState> shown_;
    int unchanged_turns_ = 0;
    int resting_ = 0;       // turns before the store is asked again
    bool failing_ = false;  // said once, until it works again
    bool overflowed_ = false;
};

// Every node's loop lag: sampled every 10 ms; said once past 50 ms, and once back under.
inline constexpr std::uint64_t lag_period_ms = 10;
inline constexpr std::uint64_t lag_threshold_ms = 50;

// What a node needs of the serve command's shared parts.
struct NodeParts {
    std::string chart_js;  // Chart.js, for the bots' pages ("": none)
    std::function<void(bool over, const LagWindow::Figures&)> say_lag;
    serve::Server::Limits limits;
};

// A front node, until it holds the database (true: it is to serve as the holder now, its
// address let go) or SIGTERM or SIGINT ends it (false).
class FrontNode {
  public:
    FrontNode(Store& store, const Settings& settings, NodeParts parts);
    ~FrontNode();
    FrontNode(const FrontNode&) = delete;
    FrontNode& operator=(const FrontNode&) = delete;
    // The exit status where it could not serve; else whether it took the database over.
    std::variant<bool, int> run();
    // Where it listened (the port chosen, for port 0): where it serves once it takes over.
    int port() const { return port_; }

    // A holder whose state is older than this is gone: a front takes the database over only
    // then (a holder cut from PostgreSQL for a moment takes its lock again as it comes back).
    static constexpr std::uint64_t holder_gone_ms = 3000;

  private:
    std::optional<int> start();
    void look();
    // The events after the last relayed, with the state and the roster they came with.
    void read_published();
    void take_state(const Published::State& state);
    void tick();
    void finish();
    LiveState live() const;
    void read_roster_now();

    Store& store_;
    Settings settings_;
    NodeParts parts_;
    uv_loop_t* loop_ = nullptr;
    Roster roster_;
    std::uint64_t roster_at_ = 0;
    bool roster_stale_ = true;
    LiveState live_;
    std::string live_text_;
    std::uint64_t live_at_ = 0;  // when the holder stored it, on this loop's clock
    bool state_read_ = false;    // one read since the front began
    std::uint64_t last_event_ = 0;
    bool unreached_ = false;
    bool unreadable_ = false;  // the state last read could not be (said once)
    int resting_ = 0;          // ticks before the store is asked again
    bool taken_ = false;
    int signal_ = 0;
    int port_ = 0;
    std::unique_ptr<FitWork> fit_;
    std::unique_ptr<LoopLag> lag_;
    std::unique_ptr<FrontSeating> seating_;
    std::unique_ptr<ApiRoutes> routes_;
    std::unique_ptr<serve::Server> server_;
    std::unique_ptr<Wake> wake_;
    std::unique_ptr<Timer> tick_;
    std::vector<SignalWatch> signals_;
    std::string started_;
};

}  // namespace bg::arena
