#include "arena/job_play.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "arena/archive.hpp"
#include "record/game_files.hpp"
#include "remote/token.hpp"
#include "serve/gzip.hpp"

namespace bg::arena {

namespace fs = std::filesystem;

namespace {

// A file's whole text, gzipped; "" where it cannot be read.
std::string gzipped_file(const std::string& path) {
    const auto text = read_whole(path);
    return text ? serve::gzip(*text) : "";
}

// Why a hosted version's files cannot be had.
struct Refused {
    std::string why;
};

// The folder of a hosted version's files in the cache: unpacked there once from its archive,
// fetched from the store and checked against the digest it was submitted with.
std::variant<std::string, Refused> cached_archive(Jobs& jobs, const std::string& cache,
                                                  const JobEntrant& e) {
    if (e.sha256.size() != 64 ||
        e.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
        return Refused{"its archive's digest is not a SHA-256 in hex"};
    const std::string folder = (fs::path(cache) / e.sha256).string();
    std::error_code error;
    if (fs::exists(folder, error))
        return folder;
    std::optional<std::string> bytes;
    try {
        bytes = jobs.archive(e.sha256);
    } catch (const std::exception& x) {
        return Refused{fmt::format("the store could not be reached for its archive: {}", x.what())};
    }
    if (!bytes)
        return Refused{fmt::format("the store keeps no archive of {} version {}", e.name, e.label)};
    if (remote::token_digest(*bytes) != e.sha256)
        return Refused{
            fmt::format("the archive of {} version {} is not the one submitted", e.name, e.label)};
    // Its bytes are those that passed the submission's limits: unpacked with every other check.
    const fs::path incoming = fs::path(cache) / fmt::format(".incoming-{}", remote::draw_token());
    auto unpacked = unpack_archive(*bytes, incoming, ArchiveLimits{1u << 30, 1u << 30, 1'000'000});
    if (auto* no = std::get_if<ArchiveRefusal>(&unpacked))
        return Refused{"its archive could not be unpacked: " + no->why};
    fs::rename(incoming, folder, error);
    if (error) {  // another of this cache kept it first, or the cache is not writable
        std::error_code ignored;
        fs::remove_all(incoming, ignored);
        if (!fs::exists(folder, ignored))
            return Refused{"its archive could not be kept in the cache"};
    }
    return folder;
}

}  // namespace

std::variant<GameSetup, std::string> job_setup(const JobPlan& plan, const Venue& venue,
                                               const std::string& dictionary) {
    auto setup = setup_from_json(plan.game);
    if (auto* error = std::get_if<std::string>(&setup))
        return "its games' setup cannot be read: " + *error;
    GameSetup base = std::get<GameSetup>(setup);
    if (base.dictionary_fingerprint != venue.dictionary().stats().fingerprint)
        return fmt::format(
            "its games are dealt from word list {:016x}, and this machine's is {:016x}",
            base.dictionary_fingerprint, venue.dictionary().stats().fingerprint);
    base.dictionary = dictionary;
    base.dictionary_fingerprint = venue.dictionary().stats().fingerprint;
    return base;
}

std::variant<int, std::string> JobCommands::command_of(const JobEntrant& e) {
    const std::string key = e.sha256.empty() ? "house:" + e.command : e.sha256 + ":" + e.command;
    if (const auto found = commands_.find(key); found != commands_.end())
        return found->second;
    std::string folder;
    if (!e.sha256.empty()) {
        auto fetched = cached_archive(jobs_, cache_, e);
        if (auto* why = std::get_if<Refused>(&fetched))
            return why->why;
        folder = std::get<std::string>(fetched);
    }
    auto added = venue_.add_command(e.command, folder);
    if (auto* index = std::get_if<int>(&added))
        commands_[key] = *index;
    return added;
}

void store_played(Jobs& jobs, StoreCalls& with_store, std::vector<JobDone>& pending,
                  const std::string& player, const char* whose, const char* played) {
    for (auto it = pending.begin(); it != pending.end();) {
        bool kept = false;
        if (!with_store("storing a result", [&] {
                kept = jobs.finish(it->match, player, it->result, it->logs_gz, it->stderr_gz);
            })) {
            ++it;
            continue;
        }
        if (kept)
            log::info("match {} {}{}: its result stored", it->match, played,
                      it->result.complete ? "" : " (incomplete: " + it->result.why + ")");
        else
            log::warning(
                "match {} was no longer {} as it ended: its result refused (the arena voided it)",
                it->match, whose);
        it = pending.erase(it);
    }
}

JobDone job_done(int match, const MatchPlay& play, const std::string& player) {
    JobDone done{match, JobResult{play.complete(), play.why(), {}, play.stalled_ms()}, {}, {}};
    for (StoredGame game : play.games()) {
        if (!game.log.empty()) {
            if (std::string gz = gzipped_file(game.log); !gz.empty())
                done.logs_gz.emplace_back(game.rotation, std::move(gz));
            for (int seat = 0; seat < static_cast<int>(game.result.players.size()); ++seat)
                if (std::string gz = gzipped_file(player_stderr_path(game.log, seat)); !gz.empty())
                    done.stderr_gz.push_back({game.rotation, seat, std::move(gz)});
            game.log = player + ":" + game.log;
        }
        done.result.games.push_back(std::move(game));
    }
    return done;
}

}  // namespace bg::arena
