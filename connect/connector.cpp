#include "connect/connector.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/log.hpp"
#include "core/text.hpp"
#include "transport/sandbox.hpp"

namespace bg::connect {

namespace {

// How a server's close for a restart (1012) begins its reason: docs/remote.md, "Sessions".
constexpr std::string_view restarting_reason = "the server is restarting";

constexpr std::size_t frame_bytes = 16 * 1024;
constexpr std::size_t info_bytes = 64 * 1024;   // GET /rules' answer
constexpr std::size_t list_bytes = 256u << 20;  // a word list
constexpr std::uint64_t info_ms = 30'000;       // to fetch which list it is
constexpr std::uint64_t list_ms = 300'000;      // to fetch the list
constexpr std::uint64_t first_pause_ms = 250;   // before trying again; doubled each time
constexpr std::uint64_t longest_pause_ms = 5'000;
constexpr const char* no_answer = "no answer within the handshake's 10 s";

// A message of connect's (cli/log.hpp), what the host and the bot said in it escaped.
void say(const std::string& line, log::Level level = log::Level::info) {
    log::say(level, escape_for_terminal(line));
}

std::string plural(int n, const char* what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}

// A response header's value, or nullopt.
std::optional<std::string> response_header(lws* wsi, const char* name) {
    char value[256] = {};
    const int length =
        lws_hdr_custom_copy(wsi, value, sizeof value, name, static_cast<int>(std::strlen(name)));
    if (length <= 0)
        return std::nullopt;
    return std::string(value, static_cast<std::size_t>(length));
}

std::optional<std::uint64_t> number(const std::optional<std::string>& text, int base = 10) {
    if (!text || text->empty())
        return std::nullopt;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(text->c_str(), &end, base);
    return end && *end == '\0' ? std::optional<std::uint64_t>(n) : std::nullopt;
}

std::string refusal_text(int status, bool arena) {
    if (arena)  // docs/arena.md, "Connecting a bot"
        switch (status) {
            case 401:
                return "no active bot has this token (wrong, disabled or removed)";
            case 403:
                return "a house bot's token: the arena starts its house bots itself";
            case 404:
                return "not an arena's /bot";
            case 410:
                return "the arena is closing";
            case 421:
                return "a front node of the arena, which seats no one: connect to the node that "
                       "holds it";
            case 429:
                return "the bot is past one of the arena's limits (its connections at once, its "
                       "connections in a minute or its matches in a day)";
            default:
                return "see the arena's log";
        }
    switch (status) {
        case 401:
            return "no token";
        case 403:
            return "a wrong token, or a page of another origin";
        case 404:
            return "no seat is taken at that path";
        case 409:
            return "the seat is taken by another connection";
        default:
            return "see the host's log";
    }
}

}  // namespace

Connector::Connector(uv_loop_t* loop, ClientContext& context, Settings settings)
    : loop_(loop),
      context_(context),
      settings_(std::move(settings)),
      retry_timer_(loop,
                   [this] {
                       if (auto again = std::exchange(again_, nullptr))
                           again();
                   }),
      attempt_timer_(loop,
                     [this] {
                         abandon(std::exchange(wsi_, nullptr));
                         retry(
                             fmt::format("cannot connect to {}: {}", settings_.url.text, no_answer),
                             [this] { connect(); });
                     }),
      stop_timer_(loop,
                  [this] {
                      // The host did not answer the close in time: the connection just goes.
                      abandon(std::exchange(wsi_, nullptr));
                      connected_ = false;
                      check_end();
                  }),
      ender_(loop, [this] { next_or_end(); }),
      bot_gone_(loop, [this] {
          // Its game did not end with it: the bot left it, and its seat is let go.
          if (done_)
              return;
          say(close_reason_, log::Level::warning);
          finish();
      }) {}

Connector::~Connector() = default;

void Connector::start() {
    for (int signum : {SIGINT, SIGTERM, SIGHUP}) {
        signals_.emplace_back(loop_, signum, [this](int s) { stop(s); });
        signals_.back().unref();
    }
    // SIGUSR1: an arena's bot leaves once its match is over (the session's "drain").
    signals_.emplace_back(loop_, SIGUSR1, [this](int) { drain(); });
    signals_.back().unref();
    give_up_at_ = uv_now(loop_) + static_cast<std::uint64_t>(settings_.retry_seconds * 1000);
    if (settings_.words_from_seat)
        fetch_word_list();
    else
        connect();
}

// ---- the word list ----

void Connector::fetch_word_list() {
    if (!cache_) {
        auto opened = WordListCache::open();
        if (auto* why = std::get_if<std::string>(&opened))
            return fail(*why);
        cache_.emplace(std::move(std::get<WordListCache>(opened)));
    }
    fetch_ = std::make_unique<HttpRequest>(
        loop_, context_, settings_.url, "/rules", info_bytes, info_ms,
        [this](HttpRequest::Reply reply) { on_word_list_info(reply); });
}

void Connector::on_word_list_info(HttpRequest::Reply reply) {
    const std::string where = fmt::format("http://{}/rules", settings_.url.authority());
    if (!reply.error.empty()) {
        // A host not up yet, or a proxy in front of one that is down: tried again.
        if (reply.status == 0 || reply.status == 502 || reply.status == 503 || reply.status == 504)
            return retry(fmt::format("cannot fetch {}: {}", where, reply.error),
                         [this] { fetch_word_list(); });
        return fail(
            fmt::format("cannot fetch {}: {} (a host before 1.6.0 serves no word list: "
                        "give --words FILE)",
                        where, reply.error));
    }
    const auto rules = nlohmann::json::parse(reply.body, nullptr, false);
    const nlohmann::json info =
        rules.is_object() && rules.contains("word_list") ? rules["word_list"] : nlohmann::json();
    const auto text = [&info](const char* key) {
        return info.is_object() && info.contains(key) && info[key].is_string()
                   ? info[key].get<std::string>()
                   : std::string();
    };
    const auto fingerprint = number(text("fingerprint"), 16);
    const std::string url = text("url");
    if (!fingerprint || text("fingerprint").size() != 16 || !url.starts_with("/wordlist/"))
        return fail(fmt::format("{} did not say which word list it is: {}", where,
                                reply.body.substr(0, 200)));
    const std::string name = text("name");
    words_fingerprint_ = *fingerprint;
    if (auto kept = cache_->find(*fingerprint)) {
        settings_.words = *kept;
        say(fmt::format("the game's word list is {} (fingerprint {:016x}): {}, kept from before",
                        name, *fingerprint, *kept));
        return connect();
    }
    say(fmt::format("the game's word list is {} (fingerprint {:016x}): fetching it from the host",
                    name, *fingerprint));
    fetch_ =
        std::make_unique<HttpRequest>(loop_, context_, settings_.url, url, list_bytes, list_ms,
                                      [this, fingerprint = *fingerprint](HttpRequest::Reply list) {
                                          on_word_list(fingerprint, list);
                                      });
}

void Connector::on_word_list(std::uint64_t fingerprint, HttpRequest::Reply reply) {
    if (!reply.error.empty())
        return fail("cannot fetch the game's word list: " + reply.error);
    std::string why;
    const auto kept = cache_->keep(fingerprint, reply.body, why);
    if (!kept)
        return fail(why);
    settings_.words = *kept;
    say(fmt::format("the word list is kept in {} ({} bytes)", *kept, reply.body.size()));
    connect();
}

// ---- the seat's connection ----

void Connector::connect() {
    if (done_)
        return;
    fetch_.reset();
    std::string query;
    if (!settings_.opponent.empty())
        query = "opponent=" + settings_.opponent;
    if (received_ > 0)
        query += fmt::format("{}received={}", query.empty() ? "" : "&", received_);
    path_ = settings_.url.path + (query.empty() ? "" : "?" + query);
    host_header_ = settings_.url.authority();
    lws_client_connect_info info;
    std::memset(&info, 0, sizeof info);
    info.context = context_.get();
    info.address = settings_.url.host.c_str();
    info.port = settings_.url.port;
    info.path = path_.c_str();
    info.host = host_header_.c_str();
    info.local_protocol_name = "bananagrams-connect";
    info.opaque_user_data = this;
    info.pwsi = &wsi_;
    attempt_timer_.start(attempt_ms);
    attempt_began_ = uv_now(loop_);
    // libwebsockets may give up on the connection in this very call: then it has said why
    // (a connection error, and a retry scheduled), or it has not.
    if (!lws_client_connect_via_info(&info)) {
        wsi_ = nullptr;
        attempt_timer_.stop();
        if (!again_ && !done_)
            retry("the connection could not be begun", [this] { connect(); });
    }
}

void Connector::retry(const std::string& what, std::function<void()> again) {
    if (done_)
        return;
    const std::uint64_t now = uv_now(loop_);
    if (now >= give_up_at_) {
        fail(settings_.retry_seconds > 0 || ever_connected_
                 ? what + "; no more tries (--retry, --grace)"
                 : what + " (--retry SEC keeps trying)");
        return;
    }
    const std::uint64_t pause =
        std::min({first_pause_ms << std::min(attempts_, 8), longest_pause_ms, give_up_at_ - now});
    ++attempts_;
    say(fmt::format("{}; trying again in {:.2f} s", what, static_cast<double>(pause) / 1000),
        log::Level::warning);
    again_ = std::move(again);
    retry_timer_.start(pause);
}

void Connector::fail(const std::string& why) {
    if (done_)
        return;
    if (settings_.games == 0 && played_ > 0 && !ever_connected_) {
        // A host before 1.6.0 does not say that the bot's games are over: no seat for it any
        // more is that.
        say(fmt::format("played {}; no seat waits for the bot now ({})", plural(played_, "game"),
                        why));
    } else {
        say(why, log::Level::error);
        status_ = exit_failed;
    }
    finish();
}

void Connector::games_over(const std::string& why) {
    say_games_over(why);
    finish();
}

void Connector::say_games_over(const std::string& why) {
    const std::string over =
        session_ ? fmt::format(" over {}", plural(connections_, "connection")) : "";
    if (settings_.games == 0 || played_ >= settings_.games) {
        say(fmt::format("played {}{}; the host has no more for the bot ({})",
                        plural(played_, "game"), over, why));
    } else {
        say(fmt::format("played {} of {}{}: the host has no more for the bot ({})", played_,
                        settings_.games, over, why));
        status_ = exit_failed;
    }
}

void Connector::finish() {
    done_ = true;
    again_ = nullptr;
    retry_timer_.stop();
    attempt_timer_.stop();
    fetch_.reset();
    const auto grace = static_cast<std::uint64_t>(settings_.kill_grace_seconds * 1000);
    if (bot_)
        bot_->terminate(grace, grace);
    if (wsi_ && connected_) {
        closing_ = true;
        lws_callback_on_writable(wsi_);
    } else if (wsi_) {
        abandon(std::exchange(wsi_, nullptr));
    }
    check_end();
}

void Connector::stop(int signum) {
    if (!stopped_)
        say(fmt::format("stopped by SIG{}{}{}", sigabbrev_np(signum),
                        bot_ && !bot_->finished() ? "; the bot is ended" : "",
                        connected_ ? "; the seat is let go" : ""));
    if (status_ == exit_played || status_ == exit_failed)
        status_ = 128 + signum;
    stopped_ = true;
    close_reason_ = fmt::format("bananagrams-connect was stopped (SIG{})", sigabbrev_np(signum));
    finish();
    // At once, not after the game's graces: SIGTERM now, SIGKILL soon, the connection closed
    // politely if the host answers in time.
    if (bot_)
        bot_->hurry(stop_kill_ms);
    for (const auto& bot : let_go_)
        bot->hurry(stop_kill_ms);
    if (wsi_)
        stop_timer_.start(stop_ms);
    check_end();
}

// Once the seat is done, the bot gone and the connection closed: everything of this program
// goes from the loop, from a turn of its own (not inside libwebsockets' callback).
void Connector::check_end() {
    std::erase_if(let_go_, [](const auto& bot) { return bot->finished(); });
    if (done_ && !ending_ && !wsi_ && (!bot_ || bot_->finished()) && let_go_.empty()) {
        ending_ = true;
        ender_.start(0);
    }
}

// A game over by the host's close frame: the next, when more are asked for and the host has
// more; else the end.
void Connector::next_or_end() {
    if (game_over_)
        ++played_;
    bool next = game_over_ && status_ == exit_played && !stopped_ &&
                (settings_.games == 0 || played_ < settings_.games);
    if (next && games_after_ == 0) {
        say_games_over("the host said this game was its last");
        next = false;
    }
    if (!next)
        return end();
    bot_.reset();
    sent_.clear();
    sent_from_ = 0;
    received_ = 0;
    host_has_.reset();
    games_after_.reset();
    attempts_ = 0;
    connected_ = ever_connected_ = host_closed_ = closing_ = close_sent_ = done_ = ending_ =
        game_over_ = session_over_ = in_game_ = false;
    close_reason_ = "the bot is done";
    // The next game's seat may not be open yet: it is tried for --retry, a second at least.
    give_up_at_ =
        uv_now(loop_) +
        std::max<std::uint64_t>(1000, static_cast<std::uint64_t>(settings_.retry_seconds * 1000));
    connect();
}

void Connector::end() {
    signals_.clear();
    retry_timer_.close();
    attempt_timer_.close();
    stop_timer_.close();
    ender_.close();
    bot_gone_.close();
    bot_.reset();
    let_go_.clear();
    fetch_.reset();
    context_.close();
}

// ---- the bot ----

void Connector::start_bot() {
    const int started = ++bots_started_;
    const auto current = [this, started] { return started == bots_started_; };
    Launch launch = unsandboxed_launch(
        settings_.command,
        settings_.words.empty()
            ? std::vector<std::string>{}
            : std::vector<std::string>{"BANANAGRAMS_WORDLIST=" + settings_.words});
    ProcessEvents events{
        .on_output =
            [this, current](std::string_view bytes) {
                if (!current())
                    return;
                sent_ += bytes;
                if (wsi_ && connected_)
                    lws_callback_on_writable(wsi_);
            },
        .on_output_end =
            [this, current] {
                if (current())
                    bot_left("its output ended");
            },
        .on_log =
            [](std::string_view line) {
                std::fprintf(stderr, "[bot] %s\n", escape_for_terminal(line).c_str());
            },
        .on_exit =
            [this, current](std::int64_t status, int signal) {
                if (current())
                    bot_left(signal ? fmt::format("it was killed by SIG{}", sigabbrev_np(signal))
                                    : fmt::format("it exited with status {}", status));
            },
        .on_write_error = [](int) {},
        .on_out_of_memory = [] {},
        .on_finished = [this] { check_end(); },
    };
    bot_ = std::make_unique<PlayerProcess>(loop_, std::move(launch), std::move(events));
    if (bot_->spawn() < 0) {
        say("the bot cannot start: " + bot_->spawn_error(), log::Level::error);
        status_ = exit_no_bot;
        close_reason_ = "the bot could not start";
        finish();
    }
}

void Connector::let_bot_go() {
    ++bots_started_;  // what it does from now on is no longer the bot's of the seat
    bot_gone_.stop();
    if (!bot_)
        return;
    const auto grace = static_cast<std::uint64_t>(settings_.kill_grace_seconds * 1000);
    bot_->terminate(grace, grace);
    let_go_.push_back(std::move(bot_));
    check_end();
}

// The bot is gone before the host ended the game: its player leaves, as it would there. In a
// session, a bot that leaves as its game ends (a v2 bot told E) is let go by the host a moment
// later: it is given that moment.
void Connector::bot_left(const std::string& why) {
    if (done_)
        return;
    close_reason_ = "the bot left: " + why;
    if (session_)
        return bot_gone_.start(1000);
    say(close_reason_, log::Level::warning);
    finish();
}

// ---- a session's messages ----

void Connector::on_control(const std::string& message) {
    const auto parsed = nlohmann::json::parse(message, nullptr, false);
    const auto field = [&parsed](const char* key) {
        return parsed.is_object() && parsed.contains(key) ? parsed[key] : nlohmann::json();
    };
    const nlohmann::json after = field("games_after");
    if (after.is_number_integer())
        games_after_ =
            static_cast<int>(std::clamp<std::int64_t>(after.get<std::int64_t>(), 0, 1'000'000));
    const nlohmann::json type = field("type");
    const nlohmann::json bot = field("bot");
    if (type == "start" && bot.is_string())
        return on_start(bot.get<std::string>());
    if (type == "end")
        return on_end();
    // A message of a later version: nothing this one needs to do.
}

void Connector::on_start(const std::string& bot) {
    in_game_ = true;
    if (std::exchange(held_for_start_, false) && wsi_)
        lws_callback_on_writable(wsi_);
    if (bot != "resumed")
        ++played_;  // counted as it begins: a kept bot's game ends with no message
    if (bot != "fresh") {
        // Kept for this game (told G next), or this game resumed after a drop: the bot goes on,
        // sending on from what the host has of its bytes (said as the connection was made).
        if (!bot_)
            start_bot();
        return;
    }
    let_bot_go();
    sent_.clear();
    sent_from_ = 0;
    received_ = 0;
    start_bot();
}

void Connector::on_end() {
    in_game_ = false;
    close_reason_ = "the bot is done";
    let_bot_go();
}

// ---- libwebsockets' events ----

int Connector::on(lws* wsi, lws_callback_reasons reason, void* in, std::size_t len) {
    if (wsi != wsi_)
        return is_traffic(reason) ? -1 : 0;
    switch (reason) {
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            return on_connection_error(wsi, in, len);
        case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
        case LWS_CALLBACK_WSI_DESTROY:
            // Gone before its handshake was answered (a proxy that took it and closed, a host
            // that never answered within libwebsockets' own bound), which libwebsockets says
            // only so.
            if (!connected_) {
                const char* what = uv_now(loop_) - attempt_began_ + 100 >= attempt_ms
                                       ? no_answer
                                       : "the connection was closed before the host answered";
                return on_connection_error(wsi, const_cast<char*>(what), std::strlen(what));
            }
            return on_closed();
        case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER: {
            // Every game the host has (--games 0): a session is asked for; an arena's bot says
            // its token and its version.
            auto** p = static_cast<unsigned char**>(in);
            const auto add = [&](const char* name, const std::string& value) {
                return lws_add_http_header_by_name(
                    wsi, reinterpret_cast<const unsigned char*>(name),
                    reinterpret_cast<const unsigned char*>(value.data()),
                    static_cast<int>(value.size()), p, *p + len);
            };
            if (settings_.games == 0 && add("x-bananagrams-session:", "1"))
                return -1;
            if (!settings_.token.empty() && add("authorization:", "Bearer " + settings_.token))
                return -1;
            if (!settings_.version.empty() && add("x-bananagrams-bot-version:", settings_.version))
                return -1;
            return 0;
        }
        case LWS_CALLBACK_CLIENT_FILTER_PRE_ESTABLISH: {
            // The response's headers, while they are still there: how many of the bot's bytes
            // the host has (a connection that comes back sends on from there), how many games
            // the bot has after this one, and which word list judges this one.
            host_has_ = number(response_header(wsi, "x-bananagrams-received:"));
            const auto after = number(response_header(wsi, "x-bananagrams-games-after:"));
            games_after_ = after ? std::optional<int>(
                                       static_cast<int>(std::min<std::uint64_t>(*after, 1'000'000)))
                                 : std::nullopt;
            seat_words_ = number(response_header(wsi, "x-bananagrams-wordlist-fingerprint:"), 16);
            seat_words_name_ = response_header(wsi, "x-bananagrams-wordlist:").value_or("?");
            session_ = response_header(wsi, "x-bananagrams-session:") == "1";
            return 0;
        }
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            return on_established(wsi);
        case LWS_CALLBACK_CLIENT_RECEIVE:
            if (session_ && lws_frame_is_binary(wsi)) {
                control_.append(static_cast<const char*>(in), len);
                if (control_.size() > info_bytes)
                    return -1;
                if (lws_is_final_fragment(wsi))
                    on_control(std::exchange(control_, {}));
                return 0;
            }
            received_ += len;
            if (bot_ && len > 0)
                bot_->write(std::string(static_cast<const char*>(in), len));
            return 0;
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            return write(wsi);
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            return on_host_close(static_cast<const unsigned char*>(in), len);
        case LWS_CALLBACK_CLIENT_CLOSED:
            return on_closed();
        default:
            return lws_callback_http_dummy(wsi, reason, nullptr, in, len);
    }
}

// The host closed the seat: the game is over for it (1000), or not to be had.
int Connector::on_host_close(const unsigned char* bytes, std::size_t len) {
    host_closed_ = true;
    const int code = len >= 2 ? (bytes[0] << 8 | bytes[1]) : 1005;
    const std::string text =
        len > 2 ? std::string(reinterpret_cast<const char*>(bytes) + 2, len - 2) : "";
    // 1012, Service Restart: libwebsockets before 4.3 takes a code of 1012 to 2999 for a
    // reserved one and gives it here as 1002, its reason kept: the reason says it.
    if (code == 1012 || (code == 1002 && text.starts_with(restarting_reason))) {
        // The host restarts (an arena stopped by SIGTERM): the game it had for the bot is over
        // (voided, or finished first); the bot comes back once it is.
        host_closed_ = false;
        restarting_ = true;
        say(fmt::format("the host is restarting ({}): trying again for up to {} s", text,
                        settings_.restart_seconds),
            log::Level::warning);
    } else if (code == 1008) {
        // Not let play (an arena's bot that failed its conformance check): trying again changes
        // nothing until the bot does.
        say(fmt::format("the host sent the bot away (1008): {}", text), log::Level::error);
        status_ = exit_failed;
    } else if (code != 1000) {
        say(fmt::format("the host closed the seat ({}): {}", code, text), log::Level::error);
    } else if (session_) {
        session_over_ = true;  // between games: the host has no more
    } else {
        game_over_ = true;
    }
    return 0;
}

int Connector::on_connection_error(lws* wsi, void* in, std::size_t len) {
    attempt_timer_.stop();
    const int status = static_cast<int>(lws_http_client_http_response(wsi));
    wsi_ = nullptr;
    const std::string what =
        in ? std::string(static_cast<const char*>(in),
                         strnlen(static_cast<const char*>(in), len ? len : 200))
           : "no reason given";
    if (status == 410) {
        games_over("HTTP 410: its games are over");
    } else if (status >= 400 && status != 502 && status != 503 && status != 504) {
        // Refused: trying again changes nothing.
        fail(fmt::format("the host refused the seat (HTTP {}): {}", status,
                         refusal_text(status, settings_.url.arena())));
    } else if (status > 0) {
        // 503: the host's seat is not open yet (its game has not begun, or the bot is between
        // two of its games); 502 and 504: a proxy whose host is down.
        retry(fmt::format("{} answered HTTP {}{}", settings_.url.text, status,
                          status == 503 ? ": no seat is open for the bot yet" : ""),
              [this] { connect(); });
    } else {
        // What libwebsockets says of a port nothing listens on, in words that say so.
        retry(fmt::format("cannot connect to {}: {}", settings_.url.text,
                          what == "closed before established"
                              ? "nothing answered at that address (closed before established)"
                              : what),
              [this] { connect(); });
    }
    check_end();
    return 0;
}

int Connector::on_established(lws* wsi) {
    attempt_timer_.stop();
    if (done_) {
        closing_ = true;
        connected_ = true;
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (ever_connected_ && (!host_has_ || *host_has_ > sent_.size())) {
        fail(
            "the host did not say what it had of the bot's bytes: its moves could be lost or "
            "sent twice");
        wsi_ = nullptr;
        check_end();
        return -1;
    }
    if (words_fingerprint_ && seat_words_ && *seat_words_ != *words_fingerprint_) {
        fail(
            fmt::format("the seat's game is judged by word list {:016x}, not the one fetched "
                        "({:016x})",
                        *seat_words_, *words_fingerprint_));
        wsi_ = nullptr;
        check_end();
        return -1;
    }
    if (!words_fingerprint_ && seat_words_ && checked_words_ != seat_words_) {
        checked_words_ = seat_words_;
        warn_of_word_list();
    }
    connected_ = true;
    ever_connected_ = true;
    ++connections_;
    attempts_ = 0;
    sent_from_ = static_cast<std::size_t>(host_has_.value_or(0));
    // A session sends nothing of its bot until the host says which game it is in (resumed: from
    // what the host has; fresh: none of the bot before, which belongs to another seat).
    held_for_start_ = session_;
    // A session's bot starts when the host says its game does.
    if (!bot_ && !session_)
        start_bot();
    lws_callback_on_writable(wsi);
    return 0;
}

// The seat named the game's word list, and the bot reads its own: said when it is another, or
// none, for a word the host does not know puts the bot out.
void Connector::warn_of_word_list() {
    const char* variable = std::getenv("BANANAGRAMS_WORDLIST");
    const std::string path = !settings_.words.empty() ? settings_.words
                             : variable               ? std::string(variable)
                                                      : std::string();
    const std::string game = fmt::format(
        "the game is judged by the word list {} (fingerprint "
        "{:016x})",
        seat_words_name_, *seat_words_);
    if (path.empty())
        return say(game +
                   ", and the bot is given none ($BANANAGRAMS_WORDLIST is not set): "
                   "--words from-seat gives it the game's");
    std::ifstream file(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof())
        return say(
            fmt::format("{}, and the bot's, {}, cannot be read: --words from-seat gives "
                        "it the game's",
                        game, path));
    const std::uint64_t own = word_list_fingerprint(text);
    if (own != *seat_words_)
        say(fmt::format("{}, and the bot reads another, {} (fingerprint {:016x}): the host may "
                        "refuse its words; --words from-seat gives it the game's",
                        game, path, own),
            log::Level::warning);
}

int Connector::on_closed() {
    connected_ = false;
    wsi_ = nullptr;
    stop_timer_.stop();
    if (session_over_ && !done_) {
        games_over(games_after_ == 0 ? "the host said this game was its last"
                                     : "the host closed the session");
        return 0;
    }
    if (host_closed_ || done_) {
        finish();
        return 0;
    }
    if (std::exchange(restarting_, false)) {
        // Nothing of the game before is resumed: the session begins again, its bot afresh.
        let_bot_go();
        in_game_ = false;
        sent_.clear();
        sent_from_ = 0;
        received_ = 0;
        host_has_.reset();
        give_up_at_ = uv_now(loop_) + static_cast<std::uint64_t>(settings_.restart_seconds * 1000);
        attempts_ = 0;
        retry("the host is restarting", [this] { connect(); });
        return 0;
    }
    // Dropped: taken again, with what each side had, while the host's grace lasts.
    give_up_at_ = uv_now(loop_) + static_cast<std::uint64_t>(settings_.grace_seconds * 1000);
    attempts_ = 0;
    retry("the connection dropped", [this] { connect(); });
    return 0;
}

void Connector::drain() {
    if (std::exchange(drain_asked_, true) || !settings_.url.arena())
        return;
    say("asked to leave once its match is over (SIGUSR1)");
    drain_unsent_ = true;
    if (wsi_ && connected_)
        lws_callback_on_writable(wsi_);
}

int Connector::write(lws* wsi) {
    if (drain_unsent_ && session_ && !stopped_) {
        // A session's message, before the bot's bytes: a binary one, which the host never takes
        // for the protocol's.
        static constexpr std::string_view drain = R"({"type":"drain"})";
        std::vector<unsigned char> buffer(LWS_PRE + drain.size());
        std::memcpy(buffer.data() + LWS_PRE, drain.data(), drain.size());
        if (lws_write(wsi, buffer.data() + LWS_PRE, drain.size(), LWS_WRITE_BINARY) <
            static_cast<int>(drain.size()))
            return -1;
        drain_unsent_ = false;
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (sent_from_ < sent_.size() && !stopped_ && !held_for_start_) {
        const std::size_t n = std::min(frame_bytes, sent_.size() - sent_from_);
        std::vector<unsigned char> buffer(LWS_PRE + n);
        std::memcpy(buffer.data() + LWS_PRE, sent_.data() + sent_from_, n);
        if (lws_write(wsi, buffer.data() + LWS_PRE, n, LWS_WRITE_TEXT) < static_cast<int>(n))
            return -1;
        sent_from_ += n;
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (closing_ && !close_sent_) {
        // The close frame, sent by libwebsockets' polite close, started here rather than by
        // returning -1, which Debian's libwebsockets ends before the frame is written (as the
        // server's sockets do, serve/server.cpp).
        close_sent_ = true;
        std::string reason = close_reason_.substr(0, 120);
        lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL,
                         reinterpret_cast<unsigned char*>(reason.data()), reason.size());
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
    }
    return 0;
}

}  // namespace bg::connect
