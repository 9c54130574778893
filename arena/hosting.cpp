#include "arena/hosting.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arena/jobs.hpp"
#include "arena/owned.hpp"
#include "core/text.hpp"
#include "remote/token.hpp"
#include "transport/process_seat.hpp"

namespace bg::arena {

namespace fs = std::filesystem;
using Posted = serve::Server::Posted;

namespace {

constexpr std::string_view bots_prefix = "/api/bots/";
constexpr std::string_view versions_suffix = "/versions";
// What a check's report keeps of the bot's stderr, at most.
constexpr std::size_t stderr_kept = 32u << 10;

Posted refusal(int status, const std::string& kind, const std::string& why, int retry_s = 0) {
    return {static_cast<unsigned>(status), nlohmann::json{{"error", why}, {"kind", kind}}.dump(),
            retry_s};
}

// The newest version of each bot that passed its check, by bot.
std::map<int, HostedVersion> playing_versions(const Store& store) {
    std::map<int, HostedVersion> newest;
    std::map<int, Entry> entries;
    for (const Entry& entry : store.entries())
        entries[entry.id] = entry;
    for (const HostedVersion& version : store.hosted())
        if (const auto found = entries.find(version.entry);
            found != entries.end() && !found->second.checked.empty())
            newest[version.bot] = version;
    return newest;
}

// The first line `command` prints (its version), or null where it does not run.
nlohmann::json version_of(const std::string& command) {
    std::unique_ptr<FILE, decltype(&::pclose)> pipe(::popen((command + " 2>&1").c_str(), "r"),
                                                    &::pclose);
    if (!pipe)
        return nullptr;
    char line[256] = {};
    const bool read = std::fgets(line, sizeof line, pipe.get()) != nullptr;
    const int status = ::pclose(pipe.release());
    std::string text = read ? line : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    return status == 0 && !text.empty() ? nlohmann::json(text) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json hosting_json(const HostingSettings& settings, const SandboxLimits& player,
                            int cores) {
    const bool hosts = !settings.folder.empty();
    nlohmann::json runtimes = nlohmann::json::object();
    if (hosts)
        runtimes = {{"python3", version_of("python3 --version")},
                    {"node", version_of("node --version")},
                    {"binary", version_of("ldd --version")}};
    return {{"version", 1},
            {"hosts", hosts},
            {"cores", cores},
            {"limits",
             {{"archive_bytes", settings.archive.archive_bytes},
              {"unpacked_bytes", settings.archive.unpacked_bytes},
              {"entries", settings.archive.entries},
              {"submissions_a_day", settings.submissions_a_day},
              {"scratch_mib", player.tmp_mib},
              {"memory_mib", player.memory_mib},
              {"processes", player.processes},
              {"cpu_seconds", player.cpu_seconds},
              {"open_files", player.open_files},
              {"file_size_mib", player.file_size_mib}}},
            {"runtimes", runtimes}};
}

std::optional<std::string> versions_path(std::string_view path) {
    path = path.substr(0, path.find('?'));
    if (!path.starts_with(bots_prefix) || !path.ends_with(versions_suffix))
        return std::nullopt;
    const std::string_view name =
        path.substr(bots_prefix.size(), path.size() - bots_prefix.size() - versions_suffix.size());
    if (name.empty() || name.find('/') != std::string_view::npos)
        return std::nullopt;
    return std::string(name);
}

Hosting::Hosting(uv_loop_t* loop, Store& store, Venue& venue, Plan plan)
    : loop_(loop), store_(store), venue_(venue), plan_(std::move(plan)) {}

Hosting::~Hosting() {
    cancel();
}

std::string Hosting::folder_of(const std::string& sha256) const {
    return (fs::path(plan_.settings.folder) / sha256).string();
}

std::variant<std::vector<House>, std::string> Hosting::start() {
    std::vector<House> houses;
    if (!hosts())
        return houses;
    std::error_code error;
    fs::create_directories(plan_.settings.folder, error);
    // Its players find their own folders, and list none: the sandbox's user passes through.
    if (error || ::chmod(plan_.settings.folder.c_str(), 0711) != 0)
        return fmt::format("the hosted bots' folder {} cannot be made: {}",
                           escape_for_terminal(plan_.settings.folder),
                           error ? error.message() : std::string(std::strerror(errno)));
    const auto playing = playing_versions(store_);
    for (const auto& [bot, version] : playing) {
        auto launched = launch(version);
        if (auto* why = std::get_if<std::string>(&launched)) {
            plan_.note(fmt::format("hosted version {} cannot be started: {}", version.label,
                                   escape_for_terminal(*why)));
            continue;
        }
        houses.push_back({bot, std::get<int>(launched), version.entry, true});
    }
    // The versions never checked (the arena stopped during their check), newer than the one
    // that plays: checked now (an older one is superseded).
    std::map<int, Entry> entries;
    for (const Entry& entry : store_.entries())
        entries[entry.id] = entry;
    for (const HostedVersion& version : store_.hosted()) {
        const Entry& entry = entries[version.entry];
        const auto plays = playing.find(version.bot);
        if (entry.checked.empty() && entry.check_failed.empty() &&
            (plays == playing.end() || plays->second.entry < version.entry))
            if (auto launched = launch(version); std::holds_alternative<int>(launched))
                check(version, std::get<int>(launched));
    }
    return houses;
}

std::variant<int, std::string> Hosting::launch(const HostedVersion& version) {
    return venue_.add_command(version.command, folder_of(version.sha256));
}

std::optional<Posted> Hosting::refused(const serve::Server::Post& head, const Door& door) const {
    const auto name = versions_path(head.path);
    if (!name)
        return refusal(404, "path", "a bot's versions are POSTed to /api/bots/NAME/versions");
    if (!hosts())
        return refusal(404, "not-hosting",
                       "this arena hosts no bots: its organiser runs it without --hosted");
    auto owner = door.owner(*name, remote::bearer_token(head.authorization), head.peer);
    if (auto* no = std::get_if<Door::Refusal>(&owner)) {
        door.refused(*no, head.peer);
        return refusal(static_cast<int>(no->status), no->kind, no->why, no->retry_after_s);
    }
    const Bot& bot = std::get<Bot>(owner);
    if (bot.command)
        return refusal(
            403, "house-token",
            fmt::format("{} is a house bot: its organiser gives it its command", bot.name));
    const auto [submitted, wait_s] = store_.submitted_in_last_day(bot.id);
    if (submitted >= plan_.settings.submissions_a_day)
        return refusal(429, "submissions-a-day",
                       fmt::format("{} has submitted {} versions in the last 24 hours, its most: "
                                   "the next may come in {} s",
                                   bot.name, submitted, wait_s),
                       wait_s);
    return std::nullopt;
}

Posted Hosting::submit(const serve::Server::Post& post, const Door& door) {
    if (auto no = refused(post, door))
        return *no;
    const Bot bot = *store_.bot(*versions_path(post.path));
    // Unpacked beside the kept ones, then kept by its digest (the same archive twice: once).
    const fs::path incoming =
        fs::path(plan_.settings.folder) / fmt::format(".incoming-{}", remote::draw_token());
    auto unpacked = unpack_archive(post.body, incoming, plan_.settings.archive);
    if (auto* no = std::get_if<ArchiveRefusal>(&unpacked))
        return refusal(no->status, no->kind, no->why);
    const Unpacked& archive = std::get<Unpacked>(unpacked);
    std::error_code error;
    const std::string kept = folder_of(archive.sha256);
    if (fs::exists(kept, error))
        fs::remove_all(incoming, error);
    else
        fs::rename(incoming, kept, error);
    if (!error) {
        // Kept in the store as well, as submitted, for workers on other machines to fetch.
        try {
            store_.jobs().keep_archive(archive.sha256, post.body);
        } catch (const std::exception& e) {
            plan_.note(
                fmt::format("{}'s archive could not be kept in the store: {}", bot.name, e.what()));
            error = std::make_error_code(std::errc::io_error);
        }
    }
    if (error) {
        fs::remove_all(incoming, error);
        return refusal(503, "archive-not-written",
                       "the arena could not keep the archive: try again later");
    }
    HostedVersion version;
    version.bot = bot.id;
    version.sha256 = archive.sha256;
    version.command = archive.manifest.command;
    version.protocol = archive.manifest.protocol;
    version.label = archive.manifest.label.empty() ? "sha-" + archive.sha256.substr(0, 12)
                                                   : archive.manifest.label;
    try {
        version.entry = store_.add_hosted(bot, version).id;
    } catch (const std::invalid_argument& e) {
        return refusal(409, "version-taken", e.what());
    }
    auto launched = launch(version);
    if (auto* why = std::get_if<std::string>(&launched)) {
        not_checked(version, *why);
        return refusal(503, "not-launched",
                       "the arena cannot start hosted bots now: its organiser is told why");
    }
    plan_.note(fmt::format("{} submitted version {} ({} files, {} bytes): checking it", bot.name,
                           version.label, archive.entries, archive.bytes));
    check(version, std::get<int>(launched));
    return {202, nlohmann::json{{"bot", bot.name},
                                {"version", version.label},
                                {"sha256", version.sha256},
                                {"state", "checking"},
                                {"next", fmt::format("the conformance check's games, in the "
                                                     "sandbox; then it plays in place of the "
                                                     "version before it. GET /api/bots/{}/hosted "
                                                     "says how its check went",
                                                     bot.name)}}
                     .dump()};
}

void Hosting::check(const HostedVersion& version, int command) {
    auto running = std::make_unique<Running>();
    running->version = version;
    running->command = command;
    auto game = venue_.game_cgroup();
    if (auto* error = std::get_if<cgroups::Machine::GameError>(&game))
        return not_checked(version, error->message);
    running->cgroup = std::move(std::get<std::unique_ptr<cgroups::GameCgroup>>(game));
    checker::Options options;
    options.command = version.label;
    options.seat = [this, command, cgroup = running->cgroup.get(),
                    scenario = 0](uv_loop_t* loop) mutable {
        auto seat = venue_.seat({loop, scenario++, command, cgroup, 1});
        if (const auto* process = dynamic_cast<const ProcessSeat*>(seat.get());
            process && !process->cgroup_error().empty())
            throw std::runtime_error("cannot make the bot's cgroup: " + process->cgroup_error());
        return seat;
    };
    options.group = [](const Seat& seat) { return static_cast<const ProcessSeat&>(seat).group(); };
    options.dictionary = &venue_.dictionary();
    options.legacy_dialect = plan_.game.dialect;
    options.wait_ms = plan_.game.ready_timeout_ms;
    options.move_ms = plan_.move_ms;
    options.grace_ms = plan_.game.kill_grace_ms;
    Running& made = *running;
    options.bot_log = [&made](std::string_view line) {
        if (made.stderr_lines.size() < stderr_kept)
            made.stderr_lines.append(line).append("\n");
    };
    const int entry = version.entry;
    running_[entry] = std::move(running);
    made.run = std::make_unique<checker::Run>(
        loop_, std::move(options), made.report,
        [this, entry](const checker::Outcome& outcome) { checked(entry, outcome); });
}

void Hosting::checked(int entry, const checker::Outcome& outcome) {
    const auto found = running_.find(entry);
    if (found == running_.end())
        return;
    const std::unique_ptr<Running> done = std::move(found->second);
    running_.erase(found);
    const bool passed = outcome.failed == 0 && outcome.passed > 0;
    std::string why;
    if (!passed)
        why = outcome.first_failed
                  ? outcome.first_failed->name + (outcome.first_failed->hint.empty()
                                                      ? ""
                                                      : " (" + outcome.first_failed->hint + ")")
                  : "no check was made";
    std::string report = done->report.str();
    if (!done->stderr_lines.empty())
        report += "\nwhat the bot wrote to stderr:\n" + done->stderr_lines;
    const HostedVersion& version = done->version;
    try {
        store_.set_check_report(entry, report);
        store_.record_check(entry, passed, why);
    } catch (const std::exception& e) {
        return not_checked(version, fmt::format("its check could not be kept: {}", e.what()));
    }
    std::optional<Bot> account;
    for (const Bot& b : store_.bots(true))
        if (b.id == version.bot)
            account = b;
    if (!account)
        return;
    plan_.note(fmt::format("{}'s version {} {} its check{}", account->name, version.label,
                           passed ? "passed" : "failed", passed ? "" : ": " + why));
    if (!passed)
        return;
    // It plays unless a newer version of the bot passed before it did.
    const auto entries = store_.entries_of(account->id);
    for (const HostedVersion& other : store_.hosted_of(account->id))
        for (const Entry& e : entries)
            if (e.id == other.entry && e.id > entry && !e.checked.empty())
                return;
    for (const Entry& e : entries)
        if (e.id == entry)
            plan_.hosted(input::Hosted{
                {account->id, done->command, entry, true}, *account, e, plan_.now_ms()});
}

void Hosting::not_checked(const HostedVersion& version, const std::string& why) {
    plan_.note(
        fmt::format("version {} could not be checked (checked again as the arena next "
                    "starts): {}",
                    version.label, escape_for_terminal(why)));
    try {
        store_.set_check_report(version.entry,
                                "the arena could not check it yet (its machine's fault, not the "
                                "bot's): it is checked as the arena next starts");
    } catch (const std::exception&) {
    }
}

void Hosting::cancel() {
    for (auto& [entry, running] : std::exchange(running_, {}))
        running->run.reset();
}

void serve_hosting(serve::Server::Content& content, Hosting& hosting, const Store& store,
                   const Door& door) {
    content.api = [&hosting, api = std::move(content.api)](const std::string& path) {
        return path == "/api/hosting" ? std::optional<std::string>(hosting.facts()) : api(path);
    };
    content.owned = [&store, &door](const std::string& path, const std::string& authorization,
                                    const std::string& peer) {
        return owned_answer(path, authorization, peer, store, door);
    };
    if (!hosting.hosts())
        return;
    content.uploads = [](std::string_view path) { return versions_path(path).has_value(); };
    content.upload_refused = [&hosting, &door](const serve::Server::Post& head) {
        return hosting.refused(head, door);
    };
    content.post = [&hosting, &door,
                    others = std::move(content.post)](const serve::Server::Post& post) {
        return versions_path(post.path) || !others ? hosting.submit(post, door) : others(post);
    };
}

}  // namespace bg::arena
