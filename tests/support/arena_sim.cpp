#include "tests/support/arena_sim.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace bg::test {

using namespace bg::arena;

namespace {

constexpr OutCode codes[] = {OutCode::protocol_error, OutCode::not_ready, OutCode::left,
                             OutCode::other, OutCode::exited};

// The n-th of `count` things, whatever n.
std::size_t pick(std::uint64_t n, std::size_t count) {
    return n % count;
}

}  // namespace

ArenaSim::ArenaSim(SimSetup setup, std::function<Effects(Effects)> distort)
    : setup_(std::move(setup)), distort_(std::move(distort)) {
    int id = 0;
    std::vector<House> houses;
    const auto add = [&](const std::string& name, const std::string& owner) -> Bot& {
        Bot& bot = bots_[++id];
        bot.id = id;
        bot.name = name;
        bot.owner = owner;
        Entry& entry = entries_[id];
        entry.id = 100 + id;
        entry.bot = id;
        entry.label = "v1";
        return bot;
    };
    for (int h = 0; h < setup_.house_bots; ++h) {
        Bot& bot = add(fmt::format("house{}", h), fmt::format("house{}", h));
        bot.command = "house";
        if (h == 0)
            bot.anchor = 25.0;
        houses.push_back({bot.id, h, 100 + bot.id});
    }
    for (int r = 0; r < setup_.remote_bots; ++r) {
        const Bot& bot =
            add(fmt::format("remote{}", r), fmt::format("owner{}", r % std::max(1, setup_.owners)));
        if (r >= setup_.unchecked)
            entries_[bot.id].checked = "before";
    }
    for (int p = 0; p < setup_.people; ++p)
        add(fmt::format("person{}", p), fmt::format("person{}", p)).person = true;
    for (int h = 0; h < setup_.hosted_bots; ++h)
        add(fmt::format("hosted{}", h), fmt::format("hosted{}", h));
    std::vector<Bot> bots;
    std::vector<Entry> entries;
    const stats::WengLin model;
    for (auto& [bot_id, bot] : bots_) {
        Entry& entry = entries_[bot_id];
        entry.belief = start_of(bot, model).belief;
        bots.push_back(bot);
        entries.push_back(entry);
    }
    starts_ = starts(entries, bots, model);
    ArenaCore::Settings settings = setup_.settings;
    if (setup_.core_faults_to_pause)
        settings.faults_to_pause = *setup_.core_faults_to_pause;
    core_ = std::make_unique<ArenaCore>(
        settings, ArenaCore::Start{Roster(model, bots, entries, {}), houses, {}, {}, 7});
}

Entry& ArenaSim::entry_of(int bot) {
    return entries_.at(bot);
}

void ArenaSim::fail(std::string why) {
    if (broken_.empty())
        broken_ = std::move(why);
}

// ---- commands ----

std::string ArenaSim::step(const SimCommand& command) {
    if (!broken_.empty())
        return broken_;
    switch (command.kind) {
        case SimCommand::arrive:
            connect(command);
            break;
        case SimCommand::leave: {
            std::vector<Connection> open;
            for (const auto& [c, conn] : conns_)
                if (conn.state != Conn::gone)
                    open.push_back(c);
            if (open.empty())
                break;
            const Connection c = open[pick(command.a, open.size())];
            conns_[c].state = Conn::gone;
            feed(arena::input::Left{c});
            break;
        }
        case SimCommand::tick:
            now_ms_ += command.a % 2'000;
            feed(arena::input::Tick{now_ms_});
            break;
        case SimCommand::match_over:
            end_match(command);
            break;
        case SimCommand::check_over: {
            std::vector<Connection> checking;
            for (const auto& [c, conn] : conns_)
                if (conn.state == Conn::checking)
                    checking.push_back(c);
            if (checking.empty())
                break;
            const Connection c = checking[pick(command.a, checking.size())];
            const bool passed = command.b != 0;
            feed(arena::input::Checked{c, passed, passed ? 3 : 1, passed ? "" : "answers the deal",
                                       passed ? "" : "failed the arena's check: answers the deal"});
            break;
        }
        case SimCommand::fail_writes:
            failing_ = static_cast<int>(command.a % 4);
            break;
        case SimCommand::reread:
            change_account(command);
            break;
        case SimCommand::signal:
            signalled_ = true;
            feed(arena::input::Signalled{15, "SIGTERM", now_ms_});
            break;
        case SimCommand::host:
            host(command);
            break;
        case SimCommand::workers:
            workers_.cores = static_cast<int>(command.a % 9);
            workers_.largest = workers_.cores == 0 ? 0 : static_cast<int>(command.b % 4) + 1;
            workers_.largest = std::min(workers_.largest, workers_.cores);
            feed(workers_);
            break;
        case SimCommand::fronts:
            fronts_.cores.clear();
            for (int n = 0; n < setup_.fronts && n < 16; ++n)
                if (command.a >> n & 1)
                    fronts_.cores[fmt::format("f{}", n)] = static_cast<int>((command.b + n) % 4);
            feed(told_fronts());
            break;
    }
    return broken_;
}

void ArenaSim::host(const SimCommand& command) {
    if (setup_.hosted_bots == 0)
        return;
    const int index =
        static_cast<int>(pick(command.a, static_cast<std::size_t>(setup_.hosted_bots)));
    const int bot = setup_.house_bots + setup_.remote_bots + setup_.people + 1 + index;
    // As the store records a check passed: the entry checked, its bot no longer paused.
    Entry& entry = entry_of(bot);
    entry.checked = fmt::format("t{}", now_ms_);
    bots_.at(bot).paused.clear();
    hosted_.insert(bot);
    feed(arena::input::Hosted{
        {bot, setup_.house_bots + index, entry.id, true}, bots_.at(bot), entry, now_ms_});
}

std::string ArenaSim::own_seat_refused(const MatchSeat& seat, std::map<int, int>& in_use) const {
    const Bot& bot = bots_.at(seat.bot.id);
    if (seat.hosted) {
        if (bot.command || !hosted_.count(bot.id))
            return fmt::format("bot {} seated as hosted, and no version of it passed its check",
                               bot.name);
        if (++in_use[bot.id] > 1)
            return fmt::format("hosted bot {} at two tables at once", bot.name);
        return "";
    }
    if (!bot.command || ++in_use[bot.id] > setup_.settings.house_seats)
        return fmt::format("house bot {}'s seats promised past {}", bot.name,
                           setup_.settings.house_seats);
    return "";
}

void ArenaSim::connect(const SimCommand& command) {
    // A remote bot or a person (house bots never connect); a disabled one is refused.
    const int first = setup_.house_bots + 1;
    const int count = setup_.remote_bots + setup_.people;
    if (count == 0)
        return;
    const int bot = first + static_cast<int>(pick(command.a, static_cast<std::size_t>(count)));
    if (bots_.at(bot).state != "active" || signalled_)
        return;
    Conn conn{bot, "", Conn::waiting};
    if (const auto node = pick(command.c, static_cast<std::size_t>(setup_.fronts) + 1); node > 0)
        conn.node = fmt::format("f{}", node - 1);
    if (bots_.at(bot).person && setup_.house_bots > 0) {
        const auto chosen = pick(command.b, static_cast<std::size_t>(setup_.house_bots) + 1);
        if (chosen > 0)
            conn.opponent = bots_.at(static_cast<int>(chosen)).name;
    }
    const Connection c = next_conn_++;
    conns_[c] = conn;
    arrive(c);
}

void ArenaSim::end_match(const SimCommand& command) {
    std::vector<int> playing;
    for (const auto& [id, m] : matches_)
        if (m.playing)
            playing.push_back(id);
    if (playing.empty())
        return;
    const int id = playing[pick(command.a, playing.size())];
    arena::input::Played played{id, command.b != 0, command.b ? "" : "cut short", false,
                                {}, now_ms_};
    played.logs_failed = !played.complete && command.c % 5 == 0;
    games_for(id, command.c, played.games, played.stalled_ms, faults_of_[id]);
    if (!played.complete && !played.games.empty()) {
        played.games.pop_back();
        played.stalled_ms.pop_back();
    }
    matches_[id].stalled_ms = played.stalled_ms;
    matches_[id].playing = false;  // over: its seats are the core's to let go
    feed(std::move(played));
}

void ArenaSim::change_account(const SimCommand& command) {
    if (bots_.empty())
        return;
    Bot& bot = bots_.at(static_cast<int>(pick(command.a, bots_.size())) + 1);
    switch (command.b % 4) {
        case 0:
            bot.state = "active";
            bot.paused.clear();
            break;
        case 1:
            bot.state = "disabled";
            break;
        case 2:
            if (!bot.person)
                bot.paused = "by hand";
            break;
        default:
            bot.paused.clear();
    }
    arena::input::Reread reread;
    for (const auto& [id, b] : bots_)
        reread.accounts.push_back(b);
    feed(std::move(reread));
    // None of an account that may not play is left waiting in the queue.
    for (const auto& q : core_->queue()) {
        const Bot& b = bots_.at(q.bot);
        if (b.state != "active" || !b.paused.empty())
            fail(fmt::format("bot {} may not play, and its connection is still queued", b.name));
    }
}

void ArenaSim::arrive(Connection c) {
    Conn& conn = conns_.at(c);
    conn.state = Conn::waiting;
    feed(arena::input::Arrived{c, bots_.at(conn.bot), entry_of(conn.bot), conn.opponent, now_ms_,
                               conn.node});
}

void ArenaSim::games_for(int match, std::uint64_t seed, std::vector<StoredGame>& games,
                         std::vector<std::uint64_t>& stalled_ms,
                         std::vector<std::optional<OutCode>>& faults) const {
    const std::uint64_t bar = core_->settings().loop_stall_bar_ms;
    const std::size_t k = matches_.at(match).seats.size();
    SplitMix64 rng(seed);
    faults.assign(k, std::nullopt);
    for (std::size_t r = 0; r < k; ++r) {
        StoredGame game;
        game.rotation = static_cast<int>(r);
        game.result.players.resize(k);
        // Now and then the machine was too busy for a fair race.
        game.result.contended = rng.next() % 16 == 0;
        // And now and then the arena's own loop stalled, past its bar or just short of it.
        const std::uint64_t stall = rng.next() % 8;
        stalled_ms.push_back(stall == 0 ? bar : stall == 1 ? bar - 1 : stall * 10);
        for (std::size_t s = 0; s < k; ++s) {
            PlayerResult& p = game.result.players[s];
            if (rng.next() % 3 == 0) {
                p.out_code = codes[rng.next() % std::size(codes)];
                p.rank = 0;
            } else {
                p.rank = 1 + static_cast<int>(rng.next() % k);
            }
            // Seat s of rotation r holds entrant (s + r) mod k: its first out code is its fault.
            if (auto& fault = faults[(s + r) % k]; !fault)
                fault = p.out_code;
        }
        games.push_back(std::move(game));
    }
}

// ---- the core's side ----

// One input, and what the core decides done; an input an effect brings (a connection back from
// its match) waits its turn, and a write's outcome is always the next, as the shell has it.
void ArenaSim::feed(arena::Input input) {
    inbox_.push_back(std::move(input));
    if (feeding_)
        return;
    feeding_ = true;
    while (!inbox_.empty() && broken_.empty()) {
        arena::Input next = std::move(inbox_.front());
        inbox_.pop_front();
        // An arrival as the store has its account when the core takes it, as the shell reads it.
        if (auto* arrived = std::get_if<arena::input::Arrived>(&next)) {
            arrived->bot = bots_.at(arrived->bot.id);
            arrived->entry = entry_of(arrived->bot.id);
        }
        Effects effects;
        try {
            effects = core_->take(next);
        } catch (const std::exception& e) {
            fail(fmt::format("the core threw: {}", e.what()));
            break;
        }
        if (distort_)
            effects = distort_(std::move(effects));
        for (std::size_t i = 0; i < effects.size(); ++i) {
            if (!is_write(effects[i])) {
                perform(effects[i]);
                continue;
            }
            if (i + 1 != effects.size())
                fail("a write that is not the last effect");
            inbox_.push_front(write(effects[i]));
        }
    }
    if (!broken_.empty())
        inbox_.clear();
    feeding_ = false;
}

arena::Input ArenaSim::write(const Effect& effect) {
    // A write that fails is still held to the rules: only what it stores is not applied.
    const bool fails = failing_ > 0;
    if (fails)
        --failing_;
    const arena::input::NotWritten failed{"the disk is full"};
    const std::string at = fmt::format("t{}", now_ms_);
    if (const auto* begin = std::get_if<effect::BeginMatch>(&effect)) {
        if (fails)
            return failed;
        const int id = next_match_++;
        StoredMatch& m = matches_[id];
        for (const int entry : begin->entries)
            m.bots.push_back(entry - 100);
        ++begun;
        return arena::input::Written{id, at};
    }
    if (const auto* rate = std::get_if<effect::RateMatch>(&effect))
        return rate_written(*rate, fails, at);
    if (const auto* v = std::get_if<effect::VoidMatch>(&effect)) {
        const auto found = matches_.find(v->match);
        if (found == matches_.end() || found->second.state != "running")
            fail(fmt::format("match {} voided, and it is not running", v->match));
        if (fails || !broken_.empty())
            return failed;
        found->second.state = "void";
        ++voided;
        return arena::input::Written{v->match, at};
    }
    if (const auto* pause = std::get_if<effect::Pause>(&effect)) {
        const auto owed = pause_owed_.find(pause->bot);
        if (owed == pause_owed_.end())
            fail(fmt::format("bot {} paused before {} matches in a row for its own fault",
                             bots_.at(pause->bot).name, setup_.settings.faults_to_pause));
        if (fails || !broken_.empty())
            return failed;
        pause_owed_.erase(owed);
        bots_.at(pause->bot).paused = pause->why;
        ++pauses;
        return arena::input::Written{0, at};
    }
    const auto& check = std::get<effect::RecordCheck>(effect);
    if (fails)
        return failed;
    Entry& e = entry_of(check.entry - 100);
    if (check.passed) {
        e.checked = at;
        e.check_failed.clear();
        bots_.at(e.bot).paused.clear();
    } else {
        e.check_failed = check.why;
    }
    return arena::input::Written{0, at};
}

// A rating written: held to what its games and the stored ratings say, then stored, and its
// faults counted by the rules' own count.
arena::Input ArenaSim::rate_written(const effect::RateMatch& rate, bool fails,
                                    const std::string& at) {
    const auto found = matches_.find(rate.match);
    if (found == matches_.end() || found->second.state != "running")
        fail(fmt::format("match {} rated, and it is not running (rated twice, or voided)",
                         rate.match));
    if (!broken_.empty())
        return arena::input::NotWritten{"refused"};
    StoredMatch& m = found->second;
    // Its result, from its games: entrant e sat in seat (e - r) mod K of rotation r.
    const std::size_t k = m.seats.size();
    // The machine's fault is no one's: a house bot out before it was ready (the arena's own
    // process on its own machine), or anyone so in a contended race or in a game in which the
    // arena's loop stalled past its bar, makes the match void.
    const std::uint64_t bar = core_->settings().loop_stall_bar_ms;
    for (std::size_t g = 0; g < rate.games.size(); ++g)
        for (std::size_t s = 0; s < k && s < rate.games[g].result.players.size(); ++s) {
            const StoredGame& game = rate.games[g];
            const auto out = game.result.players[s].out_code;
            if ((out == OutCode::not_ready || out == OutCode::could_not_start) &&
                ((m.seats[(s + static_cast<std::size_t>(game.rotation)) % k].command &&
                  !m.seats[(s + static_cast<std::size_t>(game.rotation)) % k].hosted) ||
                 game.result.contended.value_or(false) ||
                 (g < m.stalled_ms.size() && m.stalled_ms[g] >= bar)))
                fail(
                    fmt::format("match {} rated, though the machine kept a player from being "
                                "ready in its game {}",
                                rate.match, game.rotation + 1));
        }
    std::vector<std::vector<int>> places(rate.games.size(), std::vector<int>(k, 0));
    for (std::size_t g = 0; g < rate.games.size(); ++g)
        for (std::size_t s = 0; s < k && s < rate.games[g].result.players.size(); ++s)
            places[g][(s + static_cast<std::size_t>(rate.games[g].rotation)) % k] =
                rate.games[g].result.players[s].rank;
    std::vector<int> entries;
    for (const MatchSeat& seat : m.seats)
        entries.push_back(seat.entry.id);
    const auto expected = rating_step(
        entries, match_ranks(places),
        [&](int entry) {
            return Standing{entry_of(entry - 100).belief, starts_.at(entry).fixed};
        },
        stats::WengLin{});
    if (rate.rated != expected)
        fail(
            fmt::format("match {} rated otherwise than its games and the stored ratings say "
                        "(a stale rating, or the rotations read wrong)",
                        rate.match));
    if (fails)
        return arena::input::NotWritten{"the disk is full"};
    m.state = "rated";
    Match archived;
    archived.id = rate.match;
    archived.entrants = rate.rated;
    archive_.push_back(archived);
    for (const Rated& r : rate.rated) {
        Entry& e = entry_of(r.entry - 100);
        e.belief = r.after;
        ++e.matches;
    }
    ++rated;
    // The faults: a bot paused after faults_to_pause matches in a row, not before.
    const auto& faults = faults_of_[rate.match];
    for (std::size_t i = 0; i < m.bots.size(); ++i) {
        const Bot& bot = bots_.at(m.bots[i]);
        const auto fault = i < faults.size() ? faults[i] : std::nullopt;
        if (bot.person || !fault || *fault == OutCode::other) {
            streak_[bot.id] = 0;
        } else if (++streak_[bot.id] == setup_.settings.faults_to_pause) {
            streak_[bot.id] = 0;
            pause_owed_.insert(bot.id);
        }
    }
    return arena::input::Written{rate.match, at};
}

void ArenaSim::perform(const Effect& effect) {
    if (const auto* p = std::get_if<effect::Play>(&effect)) {
        play(*p);
    } else if (const auto* check = std::get_if<effect::Check>(&effect)) {
        const auto found = conns_.find(check->connection);
        const Bot& bot = bots_.at(check->bot.id);
        if (found == conns_.end() || found->second.state != Conn::waiting)
            fail(fmt::format("connection {} checked, and it is not waiting", check->connection));
        else if (bot.person || bot.command ||
                 (bot.paused.empty() && !entry_of(bot.id).checked.empty()))
            fail(fmt::format("bot {} checked, and it needs no check", bot.name));
        else
            found->second.state = Conn::checking;
    } else if (const auto* done = std::get_if<effect::CheckDone>(&effect)) {
        Conn& conn = conns_.at(done->connection);
        if (conn.state == Conn::checking && done->passed)
            arrive(done->connection);  // it waits to play again
        else if (conn.state == Conn::checking)
            conn.state = Conn::gone;  // sent away
    } else if (const auto* release = std::get_if<effect::Release>(&effect)) {
        released(release->match);
    } else if (const auto* away = std::get_if<effect::TurnAway>(&effect)) {
        for (const Connection c : away->connections) {
            if (conns_.at(c).state != Conn::waiting)
                fail(fmt::format("connection {} turned away, and it is not waiting", c));
            conns_.at(c).state = Conn::gone;
        }
    } else if (std::holds_alternative<effect::CloseDoors>(effect)) {
        for (auto& [c, conn] : conns_)
            if (conn.state == Conn::waiting || conn.state == Conn::checking)
                conn.state = Conn::gone;
    } else if (std::holds_alternative<effect::Finish>(effect)) {
        ++finishes_;
        if (!signalled_ || finishes_ > 1)
            fail("finished without a stop, or twice");
        for (const auto& [id, m] : matches_)
            if (m.playing)
                fail(fmt::format("finished with match {} playing", id));
    }
}

void ArenaSim::play(const effect::Play& play) {
    const auto found = matches_.find(play.match);
    if (found == matches_.end() || found->second.state != "running" || !found->second.seats.empty())
        return fail(fmt::format("match {} played, and it was not begun", play.match));
    if (signalled_)
        return fail(fmt::format("match {} begun after the stop", play.match));
    StoredMatch& match = found->second;
    const auto& settings = setup_.settings;
    // A match of the arena's own players alone is a worker's, where it has workers.
    const auto by_workers = [&](const std::vector<MatchSeat>& seats) {
        return settings.workers && std::all_of(seats.begin(), seats.end(),
                                               [](const MatchSeat& s) { return s.command; });
    };
    if (play.by_workers != by_workers(play.seats))
        return fail(fmt::format("match {} {} by a worker", play.match,
                                play.by_workers ? "played" : "not played"));
    if (const std::string why = misplaced(play); !why.empty())
        return fail(why);
    int playing = 0, own_seats = 0, workers_seats = 0;
    std::map<int, int> house_seats;
    std::map<std::string, int> front_seats;
    for (const auto& [id, m] : matches_)
        if (m.playing) {
            ++playing;
            const std::string at = place_of(m.seats);
            for (const MatchSeat& seat : m.seats)
                if (seat.command) {
                    ++house_seats[seat.bot.id];
                    ++(!at.empty()           ? front_seats[at]
                       : by_workers(m.seats) ? workers_seats
                                             : own_seats);
                }
        }
    int these = 0;
    for (const MatchSeat& seat : play.seats)
        these += seat.command ? 1 : 0;
    if (!play.node.empty()) {
        const int cores = fronts_.cores.at(play.node);
        if (cores > 0 && front_seats[play.node] + these > cores)
            return fail(fmt::format("{} players at front node {} at once, past its {} cores",
                                    front_seats[play.node] + these, play.node, cores));
    } else if (play.by_workers) {
        if (workers_seats + these > workers_.cores)
            return fail(fmt::format("{} players at the workers at once, past their {} cores",
                                    workers_seats + these, workers_.cores));
        if (these > workers_.largest)
            return fail(fmt::format("a worker's table of {} players, past the largest worker's {}",
                                    these, workers_.largest));
    } else if (settings.cores > 0 && own_seats + these > settings.cores) {
        return fail(fmt::format("{} players of the arena's own at once, past its {} cores",
                                own_seats + these, settings.cores));
    }
    if (playing + 1 > settings.concurrency)
        return fail(fmt::format("{} matches at once, past the concurrency", playing + 1));
    const int size = static_cast<int>(play.seats.size());
    if (size < 2 || size > settings.matchmaker.max_players)
        return fail(fmt::format("a table of {}", size));
    std::set<std::string> owners;
    for (const MatchSeat& seat : play.seats) {
        const Bot& bot = bots_.at(seat.bot.id);
        if (!owners.insert(bot.owner).second)
            return fail(fmt::format("owner {} twice at a table", bot.owner));
        if (bot.state != "active" || !bot.paused.empty())
            return fail(fmt::format("bot {} seated, and it may not play", bot.name));
        if (seat.command) {
            if (const std::string why = own_seat_refused(seat, house_seats); !why.empty())
                return fail(why);
            continue;
        }
        const auto conn = conns_.find(seat.connection);
        if (conn == conns_.end() || conn->second.state != Conn::waiting ||
            conn->second.bot != bot.id)
            return fail(fmt::format("connection {} seated, and it does not wait", seat.connection));
        if (!bot.person && entry_of(bot.id).checked.empty())
            return fail(fmt::format("bot {} seated before its version was checked", bot.name));
        conn->second.state = Conn::seated;
        if (!conn->second.opponent.empty()) {
            const MatchSeat& other = play.seats[&seat == &play.seats[0] ? 1 : 0];
            if (size != 2 || other.bot.name != conn->second.opponent || !other.command)
                return fail(fmt::format("{} chose {}, and plays another table", bot.name,
                                        conn->second.opponent));
        }
    }
    match.seats = play.seats;
    match.playing = true;
}

arena::input::Fronts ArenaSim::told_fronts() const {
    arena::input::Fronts told = fronts_;
    for (int n = 0; n < setup_.fronts; ++n) {
        const std::string node = fmt::format("f{}", n);
        if (setup_.wrong_fronts == SimSetup::WrongFronts::all_seen)
            told.cores.emplace(node, 0);  // those seen keep their cores
        else if (setup_.wrong_fronts == SimSetup::WrongFronts::unlimited && told.cores.count(node))
            told.cores[node] = 0;
    }
    return told;
}

std::string ArenaSim::place_of(const std::vector<MatchSeat>& seats) const {
    for (const MatchSeat& seat : seats)
        if (const auto conn = conns_.find(seat.connection); !seat.command && conn != conns_.end())
            return conn->second.node;
    return "";
}

std::string ArenaSim::misplaced(const effect::Play& play) const {
    std::optional<std::string> place;
    for (const MatchSeat& seat : play.seats) {
        if (seat.command && !seat.node.empty())
            return fmt::format("bot {}'s seat, the arena's own, given node '{}'", seat.bot.name,
                               seat.node);
        const auto conn = conns_.find(seat.connection);
        if (seat.command || conn == conns_.end())
            continue;  // a house seat plays anywhere; an unknown connection, play() names
        const std::string& node = conn->second.node;
        if (seat.node != node)
            return fmt::format("connection {} of node '{}' seated as one of node '{}'",
                               seat.connection, node, seat.node);
        if (place && *place != node)
            return fmt::format("connections of nodes '{}' and '{}' at match {}", *place, node,
                               play.match);
        place = node;
    }
    if (play.node != place.value_or(""))
        return fmt::format("match {} played at '{}', its connections at '{}'", play.match,
                           play.node, place.value_or(""));
    if (!play.node.empty() && !fronts_.cores.count(play.node))
        return fmt::format("match {} played at front node {}, which is not seen", play.match,
                           play.node);
    return "";
}

void ArenaSim::released(int id) {
    const auto found = matches_.find(id);
    if (found == matches_.end())
        return fail(fmt::format("match {} let go, and it was never begun", id));
    found->second.playing = false;
    for (const MatchSeat& seat : found->second.seats)
        if (!seat.command && conns_.at(seat.connection).state == Conn::seated) {
            // Back from its match: a person's page closes, a bot waits to play again.
            if (bots_.at(seat.bot.id).person || signalled_ ||
                bots_.at(seat.bot.id).state != "active")
                conns_.at(seat.connection).state = Conn::gone;
            else
                arrive(seat.connection);
        }
}

std::string ArenaSim::drain() {
    if (!broken_.empty())
        return broken_;
    failing_ = 0;
    if (!signalled_)
        step({SimCommand::signal});
    for (int round = 0; round < 1000 && broken_.empty(); ++round) {
        bool any = false;
        for (const auto& [id, m] : matches_)
            if (m.playing) {
                step({SimCommand::match_over, 0, 1, static_cast<std::uint64_t>(id) * 7919});
                any = true;
                break;
            }
        if (!any)
            break;
    }
    for (int i = 0; i < 3; ++i)
        step({SimCommand::tick, 250});
    if (!broken_.empty())
        return broken_;
    for (const auto& [id, m] : matches_)
        if (m.state == "running")
            fail(fmt::format("match {} is neither rated nor void at the end", id));
    if (core_->unrecorded() > 0)
        fail("matches left unrecorded with the store writable");
    if (finishes_ != 1)
        fail("the stop did not finish");
    if (!pause_owed_.empty())
        fail(fmt::format("bot {} not paused after {} matches in a row for its own fault",
                         bots_.at(*pause_owed_.begin()).name, setup_.settings.faults_to_pause));
    const Rerated again = rerate(archive_, starts_, stats::WengLin{});
    if (!again.differing.empty())
        fail("the stored ratings are not the archive's");
    for (const auto& [bot, entry] : entries_) {
        const Entry* held = core_->roster().entry(entry.id);
        if (!held || held->belief != entry.belief || held->matches != entry.matches)
            fail(fmt::format("bot {}'s rating in memory is not the store's", bots_.at(bot).name));
        if (again.beliefs.at(entry.id) != entry.belief)
            fail(fmt::format("bot {}'s stored rating is not rerate's", bots_.at(bot).name));
    }
    return broken_;
}

}  // namespace bg::test
