// bananagrams-connect's work (docs/remote.md): it takes a remote seat of a host elsewhere over a
// WebSocket, starts the bot's command (sh -c, as the host would; unsandboxed: it is its author's
// own machine) once it has, and relays bytes both ways, unchanged: the bot speaks the protocol
// on its stdin and stdout as it always does. A connection that drops is taken again (with what
// each side had received, so that nothing is lost or sent twice) for as long as the host's grace
// allows; the host's close frame ends the game, and the bot is ended as the host ends its own:
// its input closed, then SIGTERM, then SIGKILL.
//
// For every game the host has (--games 0) it asks for a session: one connection for all of the
// bot's games, the host saying in binary messages beside the bot's bytes as each game begins
// (the bot started afresh, kept, or the game resumed after a drop) and as the bot is let go
// (ended as at a game's end). A host before 1.6.0 answers without a session: a connection a
// game, as before.
//
// Every wait is bounded: a connection attempt by `attempt_ms`, trying again by --retry (a
// dropped connection by --grace), the word list's fetch by its own deadline, the bot's end by
// --kill-grace; a signal (SIGINT, SIGTERM, SIGHUP) ends everything within a second, the bot
// too. Each attempt that fails says on stderr what it met and when it is tried again.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "connect/client.hpp"
#include "connect/http_request.hpp"
#include "connect/seat_url.hpp"
#include "connect/word_list_cache.hpp"
#include "transport/handles.hpp"
#include "transport/player_process.hpp"

namespace bg::connect {

constexpr int exit_played = 0;  // the host ended the game (each of --games)
constexpr int exit_failed = 1;  // no connection, refused, lost for good, or no word list
constexpr int exit_usage = 2;
constexpr int exit_no_bot = 3;  // the bot's command could not start

struct Settings {
    SeatUrl url;
    std::string command;
    std::string words;             // the file the bot reads, or "" for $BANANAGRAMS_WORDLIST
    bool words_from_seat = false;  // --words from-seat: fetched from the seat's server
    double retry_seconds = 0;      // to keep trying while no seat is had
    double grace_seconds = 10;     // to keep trying again a connection that dropped
    double restart_seconds = 300;  // to keep trying a host that said it restarts (1012)
    double kill_grace_seconds = 2;
    int games = 1;         // one after another, each with its own bot; 0: while the host has more
    std::string token;     // an arena's bot's (Authorization: Bearer), or ""
    std::string version;   // the bot's version for an arena (its ratings are kept apart), or ""
    std::string opponent;  // an arena's house bot to spar with (unrated), or ""
};

class Connector final : public Handler {
  public:
    static constexpr std::uint64_t attempt_ms = 10'000;  // a connection's handshake
    static constexpr std::uint64_t stop_ms = 700;        // after a signal, the connection's end
    static constexpr std::uint64_t stop_kill_ms = 400;   // after a signal, SIGKILL to the bot

    Connector(uv_loop_t* loop, ClientContext& context, Settings settings);
    Connector(const Connector&) = delete;
    Connector& operator=(const Connector&) = delete;
    ~Connector() override;

    // Begins; the loop then runs until everything is done, and status() says how it went.
    void start();
    int status() const { return status_; }

    int on(lws* wsi, lws_callback_reasons reason, void* in, std::size_t len) override;

  private:
    // The word list (--words from-seat): which one, kept or fetched, then the seat.
    void fetch_word_list();
    void on_word_list_info(HttpRequest::Reply reply);
    void on_word_list(std::uint64_t fingerprint, HttpRequest::Reply reply);

    void connect();
    // What stood in the way, said; `again` is tried after a pause while there is time.
    void retry(const std::string& what, std::function<void()> again);
    void fail(const std::string& why);
    // The host has no more games for the bot: said (a failure when fewer than --games were
    // played), and the end.
    void games_over(const std::string& why);
    void say_games_over(const std::string& why);
    // The seat is done (or could not be had): the bot is ended, the connection closed.
    void finish();
    void stop(int signum);
    void check_end();
    void next_or_end();
    void end();

    void start_bot();
    // The bot is ended (as at a game's end), and its events heard no more.
    void let_bot_go();
    void bot_left(const std::string& why);
    // A session's message from the host, beside the bot's bytes: a game begins, or its bot is
    // let go.
    void on_control(const std::string& message);
    void on_start(const std::string& bot);
    void on_end();
    int on_connection_error(lws* wsi, void* in, std::size_t len);
    int on_established(lws* wsi);
    void warn_of_word_list();
    int on_closed();
    void drain();
    int on_host_close(const unsigned char* bytes, std::size_t len);
    int write(lws* wsi);

    uv_loop_t* loop_;
    ClientContext& context_;
    Settings settings_;
    std::optional<WordListCache> cache_;
    std::unique_ptr<HttpRequest> fetch_;
    std::optional<std::uint64_t> words_fingerprint_;  // of the list fetched from the seat's server
    lws* wsi_ = nullptr;                              // the seat's connection, being made or made
    std::string path_;
    std::string host_header_;
    Timer retry_timer_;
    Timer attempt_timer_;
    Timer stop_timer_;
    Timer ender_;
    std::function<void()> again_;
    std::vector<SignalWatch> signals_;
    std::unique_ptr<PlayerProcess> bot_;
    std::vector<std::unique_ptr<PlayerProcess>> let_go_;  // bots ended, until they are gone
    int bots_started_ = 0;  // to tell the events of the bot now from those of one let go
    std::uint64_t give_up_at_ = 0;
    std::uint64_t attempt_began_ = 0;
    int attempts_ = 0;                         // in a row, without a seat
    std::string sent_;                         // everything the bot has sent
    std::size_t sent_from_ = 0;                // of it, what goes out next
    std::uint64_t received_ = 0;               // bytes received from the host
    std::optional<std::uint64_t> host_has_;    // of sent_, what the host says it has
    std::optional<int> games_after_;           // what the host said of the bot's games to come
    std::optional<std::uint64_t> seat_words_;  // the word list the seat's game is judged by
    std::string seat_words_name_;
    std::optional<std::uint64_t> checked_words_;  // the seat's list last held to the bot's
    bool session_ = false;       // the host holds the connection for all of the bot's games
    bool session_over_ = false;  // the host closed it with 1000 between games: no more
    bool in_game_ = false;       // a session's: between a game's start and its bot let go
    std::string control_;        // a session's binary message being received
    int connections_ = 0;        // made, over the bot's games
    Timer bot_gone_;             // a session's bot that left: the host has the time to end its game
    bool connected_ = false;
    bool ever_connected_ = false;
    bool host_closed_ = false;
    bool restarting_ = false;   // the host closed it with 1012: it is tried again once it is back
    bool drain_asked_ = false;  // SIGUSR1: to leave once its match is over
    bool held_for_start_ = false;  // a session's new connection: nothing sent before a start
    bool drain_unsent_ = false;    // and the host not yet told
    bool game_over_ = false;       // the host closed the seat with 1000: its game is over
    int played_ = 0;               // games before this one
    bool closing_ = false;
    bool close_sent_ = false;
    bool done_ = false;
    bool ending_ = false;
    bool stopped_ = false;  // by a signal
    std::string close_reason_ = "the bot is done";
    int status_ = exit_played;
};

}  // namespace bg::connect
