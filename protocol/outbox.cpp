#include "protocol/outbox.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

namespace bg {

namespace {

class Outbox {
  public:
    Outbox(const Table& table, LegacyDialect dialect) : table_(table), dialect_(dialect) {}

    bool v2(PlayerId p) const {
        return sequenced(table_.players[static_cast<std::size_t>(p)].version);
    }
    // Letters a legacy player is given: bare, or '.'-terminated in v1.
    void letters(PlayerId p, std::string_view letters) {
        if (!v2(p))
            out.push_back({p, legacy_message(dialect_, letters)});
    }
    // Formatted only for a v2 player: a legacy one costs no formatting.
    template <typename... Args>
    void v2_message(PlayerId p, fmt::format_string<Args...> format, Args&&... args) {
        if (v2(p))
            out.push_back({p, fmt::format(format, std::forward<Args>(args)...) + "."});
    }
    // E: outcome W/L/Q, standing, winner ("--" when none or not yet known), then the reason,
    // length first so that its '.' cannot end the message, spaces as '_'.
    void end(PlayerId p, char outcome, std::string reason) {
        const auto winner = table_.winner;
        std::replace(reason.begin(), reason.end(), ' ', '_');
        v2_message(p, "E{}{:02}{}{:04}{}", outcome, table_.standings[static_cast<std::size_t>(p)],
                   winner ? fmt::format("{:02}", *winner + 1) : "--", reason.size(), reason);
    }

    // V: the version; from v003 on, then the player's seat and the number of seats, so that
    // the winner's seat in E means something to every player. v002 stays as first published.
    void operator()(const decision::Greeted& d) {
        if (d.version == protocol_v2)
            v2_message(d.player, "V{:03}", d.version);
        else
            v2_message(d.player, "V{:03}{:02}{:02}", d.version, d.player + 1,
                       table_.players.size());
    }
    void operator()(const decision::HandsDealt& d) {
        for (std::size_t i = 0; i < d.hands.size(); ++i) {
            if (d.hands[i].empty())
                continue;
            const auto p = static_cast<PlayerId>(i);
            letters(p, d.hands[i]);
            v2_message(p, "H{:04}{}", table_.peel_number, d.hands[i]);
        }
    }
    // The peeler's ACK comes after its own tile: once it has read the ACK, its hand holds
    // every tile up to this peel.
    void operator()(const decision::PeelAccepted& d) {
        for (std::size_t i = 0; i < d.tiles.size(); ++i) {
            if (d.tiles[i] == '.')
                continue;
            const auto p = static_cast<PlayerId>(i);
            letters(p, std::string_view(&d.tiles[i], 1));
            v2_message(p, "P{:04}{}{:04}", d.number, d.tiles[i], d.bunch);
        }
        v2_message(d.player, "A{:04}", d.number);
    }
    // A legacy player is sent nothing: the tiles it lacked are already on their way.
    void operator()(const decision::PeelStale& d) {
        std::string lacked = d.unseen;
        std::sort(lacked.begin(), lacked.end());
        v2_message(d.player, "N{:04}{:04}{}", d.current, d.number, lacked);
    }
    void operator()(const decision::Dumped& d) {
        letters(d.player, d.tiles);
        v2_message(d.player, "D{}", d.tiles);
    }
    // A legacy player has no refusal message: its letter comes back, as if swapped for itself.
    void operator()(const decision::DumpRefused& d) {
        letters(d.player, std::string_view(&d.letter, 1));
        v2_message(d.player, "X{}{:04}", d.letter, d.bunch);
    }
    void operator()(const decision::Disqualified& d) { end(d.player, 'Q', d.reason); }
    void operator()(const decision::GameOver&) {
        for (std::size_t i = 0; i < table_.players.size(); ++i) {
            const auto p = static_cast<PlayerId>(i);
            if (table_.players[i].phase != PlayerState::Phase::out)
                end(p, table_.winner == p ? 'W' : 'L', "");
        }
    }

    std::vector<Outgoing> out;

  private:
    const Table& table_;
    LegacyDialect dialect_;
};

}  // namespace

Table table_of(const Game& game, bool with_standings) {
    Table table;
    table.players = game.players();
    if (with_standings)
        table.standings = game.standings();
    if (game.over())
        table.winner = game.winner();
    table.peel_number = game.peel_number();
    return table;
}

bool needs_standings(const Decision& decision) {
    return std::holds_alternative<decision::Disqualified>(decision) ||
           std::holds_alternative<decision::GameOver>(decision);
}

std::vector<Outgoing> messages_for(const Decision& decision, const Table& table,
                                   LegacyDialect dialect) {
    Outbox outbox(table, dialect);
    std::visit(outbox, decision);
    return std::move(outbox.out);
}

}  // namespace bg
