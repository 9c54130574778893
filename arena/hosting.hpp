// Hosted bots (docs/arena.md, "Hosting a bot"): a bot's author submits its code (POST
// /api/bots/NAME/versions, the bot's token as Authorization: Bearer, a tar archive with its
// manifest), and the arena runs it as it runs a house bot: in the players' sandbox and cgroups,
// with no network, its own files read-only and the sandbox's private /tmp for scratch, wiped for
// every game. Each archive is kept by its SHA-256 (unpacked once into FOLDER/SHA256, which only
// its own players see); each version is checked first (the conformance check's games, in the
// sandbox, its stderr kept with the report for its author) and plays only once it passes, in
// place of the bot's version before it, whose rated history stays an entry of its own.
//
// Refused, each with a status and a sentence: a wrong or another bot's token (401, 403, counted
// as the door counts them), an arena that hosts no bots (404), past the bot's submissions a day
// (429, with the seconds to wait), an archive that is not one, too large or hostile (400, 413,
// 415: arena/archive.hpp), a label the bot has already (409). Nothing is written for a refusal.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "arena/archive.hpp"
#include "arena/core/inputs.hpp"
#include "arena/door.hpp"
#include "arena/store.hpp"
#include "cgroups/cgroups.hpp"
#include "checker/checker.hpp"
#include "match/venue.hpp"
#include "record/setup.hpp"
#include "serve/server.hpp"
#include "transport/sandbox.hpp"

namespace bg::arena {

struct HostingSettings {
    std::string folder;  // where archives are unpacked ("": this arena hosts no bots)
    ArchiveLimits archive;
    int submissions_a_day = 5;  // per bot, in any 24 hours
};

// What GET /api/hosting tells a bot's author: whether this arena hosts bots, its limits (the
// archive's, the submissions', and a hosted player's: its scratch, memory, processes, CPU time),
// its cores, and the runtimes its machine has (each one's own words of its version, or null).
nlohmann::json hosting_json(const HostingSettings& settings, const SandboxLimits& player,
                            int cores);

// Whether `path` (its query aside) is a bot's versions' (POST /api/bots/NAME/versions); its name.
std::optional<std::string> versions_path(std::string_view path);

class Hosting {
  public:
    struct Plan {
        HostingSettings settings;
        GameSetup game;  // the checks' clocks and dialect
        std::uint64_t move_ms = 0;
        // A hosted version passed its check: the core is told (input::Hosted).
        std::function<void(const input::Hosted&)> hosted;
        std::function<std::uint64_t()> now_ms;
        std::function<void(const std::string&)> note;  // a line for the arena's log
    };
    Hosting(uv_loop_t* loop, Store& store, Venue& venue, Plan plan);
    ~Hosting();
    Hosting(const Hosting&) = delete;
    Hosting& operator=(const Hosting&) = delete;

    bool hosts() const { return !plan_.settings.folder.empty(); }
    // GET /api/hosting's document (hosting_json), made as the arena starts.
    const std::string& facts() const { return facts_; }
    void set_facts(std::string facts) { facts_ = std::move(facts); }
    // As the arena starts: its folder made, each bot's newest version that passed its check
    // launched (its house, for the core's start), and the versions never checked checked now.
    // Or why it cannot host (its folder cannot be made).
    std::variant<std::vector<House>, std::string> start();

    // A submission, before its archive is read (serve::Server::Content::upload_refused): its
    // refusal (the door judges the token), or none.
    std::optional<serve::Server::Posted> refused(const serve::Server::Post& head,
                                                 const Door& door) const;
    // The submission, its archive read: its answer (202, the version checked next).
    serve::Server::Posted submit(const serve::Server::Post& post, const Door& door);

    // The checks under way cut short (the arena stops): checked again as it next starts.
    void cancel();
    std::size_t checking() const { return running_.size(); }

    // The version's folder, launched in the venue: its command's number, or why not.
    std::variant<int, std::string> launch(const HostedVersion& version);

  private:
    struct Running {
        HostedVersion version;
        int command = 0;
        std::ostringstream report;
        std::string stderr_lines;
        std::unique_ptr<cgroups::GameCgroup> cgroup;
        std::unique_ptr<checker::Run> run;
    };
    void check(const HostedVersion& version, int command);
    void checked(int entry, const checker::Outcome& outcome);
    // Why the version's check could not be made (the machine's fault): said, and kept as its
    // report; it is checked again as the arena next starts.
    void not_checked(const HostedVersion& version, const std::string& why);
    std::string folder_of(const std::string& sha256) const;

    uv_loop_t* loop_;
    Store& store_;
    Venue& venue_;
    Plan plan_;
    std::map<int, std::unique_ptr<Running>> running_;  // by entry
    std::string facts_ = "{}";
};

// The server's part in it: POST /api/bots/NAME/versions (beside the JSON POSTs `content` takes
// already), and what an author alone reads (arena/owned.hpp).
void serve_hosting(serve::Server::Content& content, Hosting& hosting, const Store& store,
                   const Door& door);

}  // namespace bg::arena
