// bananagrams-connect: a bot on this machine takes a remote seat of a host elsewhere
// (docs/remote.md). It connects to the seat's URL over a WebSocket, starts the bot's command
// (sh -c, as the host would; unsandboxed: it is its author's own machine) once it has, and
// relays bytes both ways, unchanged: the bot speaks the protocol on its stdin and stdout as it
// always does. A connection that drops is taken again (with what each side had received, so
// that nothing is lost or sent twice) for as long as the host's grace allows; the host's close
// frame ends the game, and the bot is ended as the host ends its own: its input closed, then
// SIGTERM, then SIGKILL.
#include <libwebsockets.h>

#include <csignal>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "connect/seat_url.hpp"
#include "core/text.hpp"
#include "record/version.hpp"
#include "transport/handles.hpp"
#include "transport/player_process.hpp"
#include "transport/sandbox.hpp"

namespace po = boost::program_options;

namespace bg {
namespace {

constexpr int exit_played = 0;  // the host ended the game
constexpr int exit_failed = 1;  // no connection, refused, or lost for good
constexpr int exit_usage = 2;
constexpr int exit_no_bot = 3;  // the bot's command could not start
constexpr std::size_t frame_bytes = 16 * 1024;

const char* const usage_text = R"(Usage: connect [options] URL -- CMD
(connect is build/connect in a build tree, bananagrams-connect once installed.)

Takes the remote seat at URL (ws://ADDR:PORT/seat/TOKEN, as the host said it on its stderr) for
the bot CMD, run through sh -c on this machine. The bot plays as it would on the host: the
protocol's bytes on its stdin and stdout, its stderr here. Its word list is this machine's: give
the game's with --words (the host's docs/remote.md says which it is).

Exit status: 0 the host ended the game (each of --games; with --games 0, at least one, and then
no seat waited for the bot); 1 the seat could not be taken (refused: the host's reason is
said), or its connection was lost for good; 2 bad options; 3 the bot could not start;
128+N stopped by signal N (the bot is ended, and the host sees the seat's player leave).
)";

struct Settings {
    SeatUrl url;
    std::string command;
    std::string words;
    double retry_seconds = 0;   // to keep trying a first connection that cannot be made
    double grace_seconds = 10;  // to keep trying again a connection that dropped
    double kill_grace_seconds = 2;
    int games = 1;  // one after another, each its own connection and bot; 0: while seated
};

class Connector {
  public:
    Connector(uv_loop_t* loop, Settings settings)
        : loop_(loop),
          settings_(std::move(settings)),
          retry_timer_(loop, [this] { connect(); }),
          ender_(loop, [this] { next_or_end(); }) {}

    // Connects, and plays until the seat is done; the exit status.
    int run() {
        if (!make_context())
            return exit_failed;
        give_up_at_ = uv_now(loop_) + static_cast<std::uint64_t>(settings_.retry_seconds * 1000);
        connect();
        for (int signum : {SIGINT, SIGTERM, SIGHUP}) {
            signals_.emplace_back(loop_, signum, [this](int s) { stop(s); });
            signals_.back().unref();
        }
        // Until end(): libwebsockets' handles keep the loop running until its context goes.
        uv_run(loop_, UV_RUN_DEFAULT);
        // With a foreign loop the context goes in two calls: the first closed its handles, on
        // the loop that has now run them out; this one frees it.
        if (*context_)
            lws_context_destroy(*context_);
        return status_;
    }

    static int callback(lws* wsi, lws_callback_reasons reason, void*, void* in, std::size_t len) {
        lws_context* context = lws_get_context(wsi);
        auto* self = context ? static_cast<Connector*>(lws_context_user(context)) : nullptr;
        if (!self)
            return lws_callback_http_dummy(wsi, reason, nullptr, in, len);
        return self->on(wsi, reason, in, len);
    }

  private:
    bool make_context() {
        static const lws_protocols protocols[] = {
            {"bananagrams-connect", &Connector::callback, 0, frame_bytes, 0, nullptr, 0},
            {nullptr, nullptr, 0, 0, 0, nullptr, 0},
        };
        lws_set_log_level(LLL_ERR, [](int, const char* line) {
            std::fprintf(stderr, "connect: libwebsockets: %s", line);
        });
        lws_context_creation_info info;
        std::memset(&info, 0, sizeof info);
        void* loops[1] = {loop_};
        info.options = LWS_SERVER_OPTION_LIBUV;
        info.foreign_loops = loops;
        info.port = CONTEXT_PORT_NO_LISTEN;
        info.protocols = protocols;
        info.user = this;
        info.pcontext = context_.get();
        *context_ = lws_create_context(&info);
        if (!*context_)
            std::fprintf(stderr, "connect: cannot make a WebSocket client here\n");
        return *context_ != nullptr;
    }

    void connect() {
        if (done_)
            return;
        const std::string path =
            settings_.url.path + (received_ > 0 ? fmt::format("?received={}", received_) : "");
        host_header_ = settings_.url.authority();
        lws_client_connect_info info;
        std::memset(&info, 0, sizeof info);
        info.context = *context_;
        info.address = settings_.url.host.c_str();
        info.port = settings_.url.port;
        info.path = path.c_str();
        info.host = host_header_.c_str();
        info.ssl_connection = 0;
        info.local_protocol_name = "bananagrams-connect";
        info.pwsi = &wsi_;
        if (!lws_client_connect_via_info(&info))
            retry_or_fail("the connection could not be begun");
    }

    // A connection could not be made, or dropped: tried again while there is time.
    void retry_or_fail(const std::string& why) {
        wsi_ = nullptr;
        if (done_)
            return;
        if (uv_now(loop_) < give_up_at_) {
            retry_timer_.start(250);
            return;
        }
        fail(why);
    }

    void fail(const std::string& why) {
        if (settings_.games == 0 && played_ > 0 && !ever_connected_) {
            // No seat for it any more: the host's games for it are over.
            std::fprintf(stderr, "connect: played %d game%s; no seat waits for the bot now (%s)\n",
                         played_, played_ == 1 ? "" : "s", escape_for_terminal(why).c_str());
        } else {
            std::fprintf(stderr, "connect: %s\n", escape_for_terminal(why).c_str());
            status_ = exit_failed;
        }
        finish();
    }

    // The seat is done (or could not be had): the bot is ended, the connection closed.
    void finish() {
        if (done_)
            return;
        done_ = true;
        retry_timer_.stop();
        const auto grace = static_cast<std::uint64_t>(settings_.kill_grace_seconds * 1000);
        if (bot_)
            bot_->terminate(grace, grace);
        if (wsi_) {
            closing_ = true;
            lws_callback_on_writable(wsi_);
        }
        check_end();
    }

    // Once the seat is done, the bot gone and the connection closed: everything of this program
    // goes from the loop, from a turn of its own (not inside libwebsockets' callback).
    void check_end() {
        if (done_ && !ending_ && !wsi_ && (!bot_ || bot_->finished())) {
            ending_ = true;
            ender_.start(0);
        }
    }

    // A game over by the host's close frame: the next, when more are asked for; else the end.
    void next_or_end() {
        const bool next = game_over_ && status_ == exit_played &&
                          (settings_.games == 0 || played_ + 1 < settings_.games);
        if (game_over_)
            ++played_;
        if (!next)
            return end();
        bot_.reset();
        sent_.clear();
        sent_from_ = 0;
        received_ = 0;
        host_has_.reset();
        connected_ = ever_connected_ = host_closed_ = closing_ = done_ = ending_ = game_over_ =
            false;
        close_reason_ = "the bot is done";
        // The next game's seat may not be open yet: it is tried for --retry, a second at least.
        give_up_at_ =
            uv_now(loop_) + std::max<std::uint64_t>(
                                1000, static_cast<std::uint64_t>(settings_.retry_seconds * 1000));
        connect();
    }

    void end() {
        signals_.clear();
        retry_timer_.close();
        ender_.close();
        bot_.reset();
        lws_context_destroy(*context_);
    }

    void stop(int signum) {
        if (status_ == exit_played || status_ == exit_failed)
            status_ = 128 + signum;
        close_reason_ =
            fmt::format("bananagrams-connect was stopped (SIG{})", sigabbrev_np(signum));
        finish();
    }

    void start_bot() {
        Launch launch = unsandboxed_launch(
            settings_.command,
            settings_.words.empty()
                ? std::vector<std::string>{}
                : std::vector<std::string>{"BANANAGRAMS_WORDLIST=" + settings_.words});
        ProcessEvents events{
            .on_output =
                [this](std::string_view bytes) {
                    sent_ += bytes;
                    if (wsi_ && connected_)
                        lws_callback_on_writable(wsi_);
                },
            .on_output_end = [this] { bot_left("its output ended"); },
            .on_log =
                [](std::string_view line) {
                    std::fprintf(stderr, "[bot] %s\n", escape_for_terminal(line).c_str());
                },
            .on_exit =
                [this](std::int64_t status, int signal) {
                    bot_left(signal ? fmt::format("it was killed by SIG{}", sigabbrev_np(signal))
                                    : fmt::format("it exited with status {}", status));
                },
            .on_write_error = [](int) {},
            .on_out_of_memory = [] {},
            .on_finished = [this] { check_end(); },
        };
        bot_.emplace(loop_, std::move(launch), std::move(events));
        if (bot_->spawn() < 0) {
            std::fprintf(stderr, "connect: the bot cannot start: %s\n",
                         escape_for_terminal(bot_->spawn_error()).c_str());
            status_ = exit_no_bot;
            close_reason_ = "the bot could not start";
            finish();
        }
    }

    // The bot is gone before the host ended the game: its player leaves, as it would there.
    void bot_left(const std::string& why) {
        if (done_)
            return;
        close_reason_ = "the bot left: " + why;
        std::fprintf(stderr, "connect: the bot left: %s\n", why.c_str());
        finish();
    }

    int on(lws* wsi, lws_callback_reasons reason, void* in, std::size_t len) {
        switch (reason) {
            case LWS_CALLBACK_CLIENT_CONNECTION_ERROR: {
                const int status = lws_http_client_http_response(wsi);
                const std::string why =
                    in ? std::string(static_cast<const char*>(in),
                                     strnlen(static_cast<const char*>(in), len ? len : 200))
                       : "no reason given";
                if (status >= 400 && status != 503) {
                    // Refused: trying again changes nothing.
                    wsi_ = nullptr;
                    fail(fmt::format("the host refused the seat (HTTP {}): {}", status,
                                     refusal_text(status)));
                } else {
                    retry_or_fail("cannot connect to " + settings_.url.text + ": " + why);
                }
                check_end();
                return 0;
            }
            case LWS_CALLBACK_CLIENT_FILTER_PRE_ESTABLISH: {
                // The response's headers, while they are still there: how many of the bot's
                // bytes the host has, for a connection that comes back to send on from there.
                char value[32] = {};
                host_has_.reset();
                if (lws_hdr_custom_copy(wsi, value, sizeof value, "x-bananagrams-received:", 23) >
                    0)
                    host_has_ = std::strtoull(value, nullptr, 10);
                return 0;
            }
            case LWS_CALLBACK_CLIENT_ESTABLISHED: {
                if (done_) {
                    closing_ = true;
                    lws_callback_on_writable(wsi);
                    return 0;
                }
                if (ever_connected_ && (!host_has_ || *host_has_ > sent_.size())) {
                    fail(
                        "the host did not say what it had of the bot's bytes: its moves could "
                        "be lost or sent twice");
                    return -1;
                }
                connected_ = true;
                ever_connected_ = true;
                sent_from_ = static_cast<std::size_t>(host_has_.value_or(0));
                if (!bot_)
                    start_bot();
                lws_callback_on_writable(wsi);
                return 0;
            }
            case LWS_CALLBACK_CLIENT_RECEIVE:
                received_ += len;
                if (bot_ && len > 0)
                    bot_->write(std::string(static_cast<const char*>(in), len));
                return 0;
            case LWS_CALLBACK_CLIENT_WRITEABLE:
                return write(wsi);
            case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE: {
                // The host closed the seat: the game is over for it (1000), or not to be had.
                host_closed_ = true;
                const auto* bytes = static_cast<const unsigned char*>(in);
                const int code = len >= 2 ? (bytes[0] << 8 | bytes[1]) : 1005;
                const std::string text =
                    len > 2 ? std::string(reinterpret_cast<const char*>(bytes) + 2, len - 2) : "";
                if (code != 1000)
                    std::fprintf(stderr, "connect: the host closed the seat (%d): %s\n", code,
                                 escape_for_terminal(text).c_str());
                else
                    game_over_ = true;
                return 0;
            }
            case LWS_CALLBACK_CLIENT_CLOSED:
                connected_ = false;
                wsi_ = nullptr;
                if (host_closed_ || done_) {
                    finish();
                    check_end();
                    return 0;
                }
                // Dropped: taken again, with what each side had, while the host's grace lasts.
                std::fprintf(stderr, "connect: the connection dropped; connecting again\n");
                give_up_at_ =
                    uv_now(loop_) + static_cast<std::uint64_t>(settings_.grace_seconds * 1000);
                retry_timer_.start(100);
                return 0;
            default:
                return lws_callback_http_dummy(wsi, reason, nullptr, in, len);
        }
    }

    int write(lws* wsi) {
        if (sent_from_ < sent_.size()) {
            const std::size_t n = std::min(frame_bytes, sent_.size() - sent_from_);
            std::vector<unsigned char> buffer(LWS_PRE + n);
            std::memcpy(buffer.data() + LWS_PRE, sent_.data() + sent_from_, n);
            if (lws_write(wsi, buffer.data() + LWS_PRE, n, LWS_WRITE_TEXT) < static_cast<int>(n))
                return -1;
            sent_from_ += n;
            lws_callback_on_writable(wsi);
            return 0;
        }
        if (closing_) {
            std::string reason = close_reason_.substr(0, 120);
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL,
                             reinterpret_cast<unsigned char*>(reason.data()), reason.size());
            return -1;
        }
        return 0;
    }

    static std::string refusal_text(int status) {
        switch (status) {
            case 401:
                return "no token";
            case 403:
                return "a wrong token, or a page of another origin";
            case 404:
                return "no seat is taken at that path";
            case 409:
                return "the seat is taken by another connection";
            case 410:
                return "the seat's game is over for it";
            default:
                return "see the host's log";
        }
    }

    uv_loop_t* loop_;
    Settings settings_;
    std::unique_ptr<lws_context*> context_ = std::make_unique<lws_context*>(nullptr);
    lws* wsi_ = nullptr;
    std::string host_header_;
    Timer retry_timer_;
    Timer ender_;
    std::vector<SignalWatch> signals_;
    std::optional<PlayerProcess> bot_;
    std::uint64_t give_up_at_ = 0;
    std::string sent_;                       // everything the bot has sent
    std::size_t sent_from_ = 0;              // of it, what goes out next
    std::uint64_t received_ = 0;             // bytes received from the host
    std::optional<std::uint64_t> host_has_;  // of sent_, what the host says it has
    bool connected_ = false;
    bool ever_connected_ = false;
    bool host_closed_ = false;
    bool game_over_ = false;  // the host closed the seat with 1000: its game is over
    int played_ = 0;          // games before this one
    bool closing_ = false;
    bool done_ = false;
    bool ending_ = false;
    std::string close_reason_ = "the bot is done";
    int status_ = exit_played;
};

}  // namespace

int run(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);
    po::options_description options("Options");
    // clang-format off
    options.add_options()
        ("help,h", "show this help and exit")
        ("version", "show the version and exit")
        ("words", po::value<std::string>()->value_name("FILE"),
         "the word list the bot reads ($BANANAGRAMS_WORDLIST): the game's, on this machine "
         "(default: the variable as it is here)")
        ("retry", po::value<double>()->value_name("SEC")->default_value(0),
         "keep trying to connect this long while the host cannot be reached or its game has not "
         "begun (a seat that is refused is not tried again)")
        ("games", po::value<std::string>()->value_name("N")->default_value("1"),
         "play N games one after another (a tournament's, or host --games'), each with its own "
         "connection and a fresh bot; 0: as long as the host has a seat for it (tried for --retry "
         "between games)")
        ("grace", po::value<double>()->value_name("SEC")->default_value(10),
         "a connection that drops is taken again for this long (the host's --remote-grace)")
        ("kill-grace", po::value<double>()->value_name("SEC")->default_value(2),
         "once the game is over, the bot's input is closed: it has this long to leave by "
         "itself before SIGTERM, and as long again before SIGKILL");
    // clang-format on
    po::options_description hidden;
    hidden.add_options()("url", po::value<std::string>())("command",
                                                          po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(options).add(hidden);
    po::positional_options_description positional;
    positional.add("url", 1).add("command", -1);
    Settings settings;
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(),
                  vm);
        po::notify(vm);
        if (vm.count("help")) {
            std::printf("%s\n", usage_text);
            std::cout << options << "\n";
            return 0;
        }
        if (vm.count("version")) {
            std::printf("%s\n", version_line("bananagrams-connect").c_str());
            return 0;
        }
        if (!vm.count("url"))
            throw po::error("no seat URL given");
        auto url = parse_seat_url(vm["url"].as<std::string>());
        if (auto* why = std::get_if<std::string>(&url))
            throw po::error(*why);
        settings.url = std::get<SeatUrl>(url);
        if (!vm.count("command"))
            throw po::error("no bot command given (URL -- CMD)");
        const auto words = vm["command"].as<std::vector<std::string>>();
        for (const auto& word : words)
            settings.command += (settings.command.empty() ? "" : " ") + word;
        if (vm.count("words"))
            settings.words = vm["words"].as<std::string>();
        for (const char* name : {"retry", "grace", "kill-grace"})
            if (vm[name].as<double>() < 0 || vm[name].as<double>() > 3600)
                throw po::error(fmt::format("--{} is 0 to 3600 seconds", name));
        settings.retry_seconds = vm["retry"].as<double>();
        settings.grace_seconds = vm["grace"].as<double>();
        settings.kill_grace_seconds = vm["kill-grace"].as<double>();
        const std::string games = vm["games"].as<std::string>();
        if (games.empty() || games.size() > 6 ||
            games.find_first_not_of("0123456789") != std::string::npos)
            throw po::error("--games is a number of games, 0 for as many as the host seats it");
        settings.games = std::stoi(games);
    } catch (const po::error& e) {
        std::fprintf(stderr, "connect: %s\nTry 'connect --help'.\n",
                     escape_for_terminal(e.what()).c_str());
        return exit_usage;
    }
    EventLoop loop;
    const int status = Connector(loop.get(), std::move(settings)).run();
    loop.close();
    return status;
}

}  // namespace bg

int main(int argc, char** argv) {
    try {
        return bg::run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "connect: %s\n", e.what());
        return 1;
    }
}
