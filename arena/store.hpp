// The arena's store: everything it keeps (its accounts, their rating entries, its matches and
// their games, its parameters), behind one interface, answered in SQLite or PostgreSQL
// (arena/sql_store.hpp, the schema's history there and in docs/arena.md). The arena's commands
// and its server read and write it through this alone.
//
// A match is rated once, in the write that stores its games and every entrant's rating before
// and after; a match that never got there (the arena stopped or was killed) is void, and rates
// nothing. Each write says what it made of the record (an id, when it was written), so that
// what was written is known without reading it back.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "arena/core/inputs.hpp"
#include "arena/core/matchmaker.hpp"
#include "arena/core/records.hpp"
#include "arena/core/roster.hpp"
#include "stats/weng_lin.hpp"

namespace bg::arena {

class FrontMail;
class Jobs;
class Published;
class Seasons;

class Store {
  public:
    // The store at `where` (a file: SQLite; a PostgreSQL connection string, a postgresql:// URI
    // or libpq's keywords: sql/postgres_connection.hpp): made (with the rating model given) when
    // `create` and it is not there; else opened, and refused when it is not an arena's or of a
    // later schema.
    static std::variant<std::unique_ptr<Store>, std::string> open(const std::string& where,
                                                                  bool create,
                                                                  const stats::WengLin& model = {});
    virtual ~Store() = default;
    // What of this machine reads the store without the arena (sql::Connection::private_paths):
    // no player may see it.
    virtual std::vector<std::string> private_paths() const = 0;
    // Holds the store for the one arena that serves it, for as long as this store is open;
    // false where another arena (another process) holds it. An arena serves a store alone: its
    // matches, and their ratings in one order, are its own.
    virtual bool hold_serving() = 0;
    // Lets it go (a standby that cannot listen yet); whether it still holds it (false: another
    // arena took it while the connection was lost, and this one can write nothing more).
    virtual void release_serving() = 0;
    virtual bool still_serving() const = 0;

    // The parameters: the rating model, fixed as the store is made; the matchmaker's, as its
    // last serve used them.
    virtual const stats::WengLin& model() const = 0;
    virtual MatchmakerConfig matchmaker() const = 0;
    virtual void set_matchmaker(const MatchmakerConfig& config) = 0;

    // Accounts. A new bot's token is returned, never kept: only its digest. Throws
    // std::invalid_argument with a sentence for a name taken or not allowed.
    virtual std::string add_bot(const std::string& name, const std::string& owner,
                                const std::optional<std::string>& command,
                                const std::optional<double>& anchor) = 0;
    // A person's account, and the code it signs in with (kept only as a digest, as a token is):
    // drawn, or the one given (a person signing up chose it: 16 to 64 of A-Z a-z 0-9 _ -).
    virtual std::string add_person(const std::string& name, const std::string& code = "") = 0;
    // Every account, bots' and people's, by name.
    virtual std::vector<Bot> bots(bool removed_too = false) const = 0;
    virtual std::optional<Bot> bot(const std::string& name) const = 0;
    // The active or paused account whose token this is (none for a removed or disabled one).
    virtual std::optional<Bot> bot_by_token(const std::string& token) const = 0;
    virtual void set_state(int bot, const std::string& state) = 0;
    // What the bot is, for its public pages ("" none): up to 80 printable characters.
    virtual void set_about(int bot, const std::string& about) = 0;
    // Paused, and why ("": no longer); when it was (paused_at), or "".
    virtual std::string set_paused(int bot, const std::string& why) = 0;
    // A conformance check of `entry`: passed (the entry checked, its bot no longer paused), or
    // failed, and why. When it was recorded.
    virtual std::string record_check(int entry, bool passed, const std::string& why) = 0;
    virtual std::string rotate_token(int bot) = 0;

    // The bot's entry for `label`, made (at the model's first belief, or its anchor) if new.
    virtual Entry entry(const Bot& bot, const std::string& label) = 0;
    virtual std::vector<Entry> entries() const = 0;  // by id
    virtual std::vector<Entry> entries_of(int bot) const = 0;

    // Matches: begun (running), then rated with their games in one write (each game's event
    // log, read from its file, kept with it), or void.
    struct Begun {
        int id = 0;
        std::string started;
    };
    virtual Begun begin_match(std::uint64_t seed) = 0;
    // A season's finals match, on the finals' deal (FinalsOf::seed), marked as its finals'.
    virtual Begun begin_finals_match(const FinalsOf& finals) = 0;
    // When it finished. Throws std::logic_error for a match not running.
    virtual std::string rate_match(int match, const std::vector<Rated>& entrants,
                                   const std::vector<StoredGame>& games) = 0;
    virtual std::string void_match(int match, const std::string& why) = 0;
    // Every match left running (the arena was stopped or killed): void, with `why`. How many.
    virtual int void_running(const std::string& why) = 0;
    virtual std::vector<Match> matches() const = 0;  // newest first
    // The last `n` matches over (rated or void), the latest first, without their entrants.
    virtual std::vector<Match> last_over(int n) const = 0;
    virtual std::vector<Match> rated_in_order() const = 0;  // with their entrants, as rated
    // The entries of each of the last `n` rated matches, oldest first.
    virtual std::vector<RecentMatch> recent_groups(int n) const = 0;
    // A match's games, each player's referee counts with its result where they were kept.
    virtual std::vector<StoredGame> games_of(int match) const = 0;
    // The event log of a match's game as the store keeps it (read from its file as the match
    // was rated), or none where it kept none.
    virtual std::optional<std::string> game_log(int match, int rotation) const = 0;
    // What the player in `seat` of a match's game wrote to stderr, where the store keeps it (a
    // game a worker played: its file is on the worker's machine); none where it keeps none.
    virtual std::optional<std::string> game_stderr(int match, int rotation, int seat) const = 0;
    // Every game of every match the entry was rated in: its seat in the match's first rotation
    // and the match's players beside the game (in seat s of rotation r sits the entrant of
    // first seat (s + r) mod players).
    struct SeatGame {
        int match = 0;
        int seat = 0;
        int players = 0;
        StoredGame game;
    };
    virtual std::vector<SeatGame> games_of_entry(int entry) const = 0;
    // Every entrant of every match the entry was rated in, by match, in seat order.
    virtual std::vector<std::pair<int, Rated>> tables_of(int entry) const = 0;
    virtual std::optional<Match> match(int id) const = 0;  // with its entrants once rated
    // An entry's rated matches, in the order they were rated.
    struct Played {
        int match = 0;
        std::string finished;
        Rated rated;
    };
    virtual std::vector<Played> history(int entry) const = 0;
    // Each bot's median round trip over its connection (a remote bot's: the median of its
    // games' medians) in the last `matches` rated matches, in ms; bots without one absent.
    virtual std::map<int, double> round_trips(int matches) const = 0;
    // The bot's matches (rated or void) that finished in the last 24 hours, and the seconds
    // until the first of them is 24 hours old (0 when none).
    virtual std::pair<int, int> matches_in_last_day(int bot) const = 0;

    // Hosted bots' versions (docs/arena.md, "Hosting a bot"): a version submitted, its archive
    // kept by its SHA-256 (its files unpacked where the arena keeps them), its manifest's
    // command and protocol. Its entry, made now; throws std::invalid_argument with a sentence
    // where the bot has a version of that label already.
    virtual Entry add_hosted(const Bot& bot, const HostedVersion& version) = 0;
    // The bot's hosted versions, the oldest first; every bot's.
    virtual std::vector<HostedVersion> hosted_of(int bot) const = 0;
    virtual std::vector<HostedVersion> hosted() const = 0;
    // What its check's games came to, as the checker wrote it (for its author).
    virtual void set_check_report(int entry, const std::string& report) = 0;
    // The bot's versions submitted in the last 24 hours, and the seconds until the first of them
    // is 24 hours old (0 when none).
    virtual std::pair<int, int> submitted_in_last_day(int bot) const = 0;

    // The matches workers play, and the hosted versions' archives they fetch (arena/jobs.hpp).
    virtual Jobs& jobs() = 0;
    // What the arena that holds the store shows its front nodes (arena/published.hpp).
    virtual Published& published() = 0;
    // The front nodes that seat, and the messages between them and the holder
    // (arena/front_mail.hpp).
    virtual FrontMail& fronts() = 0;
    // The seasons, and their finals (arena/seasons.hpp).
    virtual Seasons& seasons() = 0;
    virtual const Seasons& seasons() const = 0;
};

// What the arena knows, read whole from its store: every account, entry and rated match.
Roster read_roster(const Store& store);

// The parameters as the store, `arena config` and the API hold them.
nlohmann::json to_json(const stats::WengLin& model);
nlohmann::json to_json(const MatchmakerConfig& config);

// A token's digest, as the store keeps it (remote::token_digest: SHA-256, in hex).
std::string token_hash(const std::string& token);
// Whether `text` holds no control character (no byte under ' ', none 127): one line, which a
// page or the arena's log shows as it is.
bool one_line(std::string_view text);
// Whether `label` may name a bot's version: up to 64 printable ASCII characters, no spaces (as a
// remote bot says it, X-Bananagrams-Bot-Version, and a hosted bot's manifest, its "label").
bool valid_version_label(std::string_view label);
// Whether `about` may say what a bot is (Store::set_about), and the rule it breaks when not.
bool valid_about(const std::string& about);
inline constexpr const char* about_rule =
    "what a bot is: up to 80 characters, no control characters";

}  // namespace bg::arena
