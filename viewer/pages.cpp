#include "viewer/pages.hpp"

#include <fmt/format.h>

#include "serve/records.hpp"
#include "viewer/assets.hpp"

namespace bg::viewer {

std::string script_json(const nlohmann::json& value) {
    // Replacing the bytes only ever meets them inside JSON strings, where \u escapes mean the
    // same; invalid UTF-8 is replaced rather than thrown on (the log holds bytes as hex anyway).
    const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '<':
                out += "\\u003c";
                break;
            case '>':
                out += "\\u003e";
                break;
            case '&':
                out += "\\u0026";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::variant<std::vector<nlohmann::json>, std::string> read_records(std::istream& log) {
    std::vector<nlohmann::json> records;
    std::string line;
    for (int number = 1; std::getline(log, line); ++number) {
        if (line.empty())
            continue;
        auto record = nlohmann::json::parse(line, nullptr, false);
        if (record.is_discarded() || !record.is_object())
            return fmt::format("line {} is not a JSON object", number);
        records.push_back(std::move(record));
    }
    if (records.empty() || !records.front().contains("start"))
        return std::string("no start record: not an event log");
    return records;
}

namespace {

std::string page(const std::string& title, const std::string& body, const std::string& data_id,
                 const std::string& data, const std::string& script,
                 const std::string& more_data = "") {
    return fmt::format(R"(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{}</title>
<style>{}</style>
</head>
<body>
{}
<script type="application/json" id="{}">{}</script>{}
<script>window.onerror = function (message) {{ document.body.dataset.error = String(message); }};</script>
<script>{}</script>
<script>{}</script>
</body>
</html>
)",
                       title, assets::page_css, body, data_id, data, more_data, assets::grid_js,
                       script);
}

// The game page's body; live, with the state of its connection to the event stream.
std::string game_body(bool live) {
    const char* const connection =
        "\n<div><span id=\"connection\" class=\"connecting\">connecting...</span></div>";
    return std::string(R"(<header>
<a id="to-match" class="back" href="/" hidden></a>
<h1 id="title">Bananagrams game</h1>)") +
           (live ? connection : "") + R"(
<div class="controls">
<button id="back" title="previous event">&larr;</button>
<button id="play">play</button>
<button id="forward" title="next event">&rarr;</button>
<select id="speed" title="speed"><option value="1">real time</option><option value="4">4x</option>
<option value="16" selected>16x</option><option value="64">64x</option></select>
<input type="range" id="step" min="0" max="0" value="0" aria-label="moment">
<span id="clock" class="muted"></span>
<select id="picker" title="players"><option value="all">all players</option></select>
</div>
</header>
<main>
<div>
<div id="boards"></div>
<h2>Result</h2>
<table id="result"></table>
<p id="contention"></p>
<p id="again" hidden>The same deal again: <code id="replay"></code>
<span class="muted">(host: build/host in a clone, bananagrams-host once installed)</span></p>
<div id="stderr"></div>
</div>
<aside>
<div id="current"></div>
<svg id="bunch" width="320" height="90" role="img" aria-label="tiles in the bunch over time"></svg>
<ul id="events"></ul>
</aside>
</main>)";
}

}  // namespace

std::string game_page(const std::vector<nlohmann::json>& records,
                      const std::vector<std::string>& player_stderr, const nlohmann::json& arena) {
    std::string more;
    if (!arena.is_null())
        more = "\n<script type=\"application/json\" id=\"arena-game\">" + script_json(arena) +
               "</script>";
    if (!player_stderr.empty()) {
        nlohmann::json texts = nlohmann::json::array();
        for (const auto& text : player_stderr)
            texts.push_back(text);
        more += "\n<script type=\"application/json\" id=\"stderr-data\">" + script_json(texts) +
                "</script>";
    }
    // Each seed also as text (serve/records.hpp): the script reads JSON numbers as doubles.
    nlohmann::json shown = nlohmann::json::array();
    for (const auto& record : records)
        shown.push_back(serve::with_seed_text(record));
    return page("Bananagrams game", game_body(false), "log", script_json(shown), assets::game_js,
                more);
}

std::string report_page(const nlohmann::json& data) {
    const char* const body = R"(<header><h1 id="title">Tournament report</h1></header>
<div class="report">
<section><h2>Standings</h2><table id="standings"></table><p id="elo-note" class="muted"></p>
<div id="pairs"></div></section>
<section><h2>Ratings (Elo, 95% intervals)</h2><svg id="ratings"></svg></section>
<section><h2>Wins by seat</h2><table id="seats"></table></section>
<section><h2>Head to head (the row's share against the column)</h2><table id="head"></table></section>
<section><h2>Disqualifications</h2><table id="disqualifications"></table></section>
<section><h2>Games</h2><table id="games"></table></section>
</div>)";
    return page("Tournament report", body, "report", script_json(data), assets::report_js);
}

std::string live_tournament_page() {
    const char* const body = R"(<header><h1 id="title">Tournament</h1>
<div><span id="connection" class="connecting">connecting...</span> <span id="progress" class="muted"></span></div>
</header>
<div class="report">
<section><h2>Standings</h2><table id="standings"></table><div id="sprt"></div></section>
<section><h2>Playing now</h2><p id="idle" class="muted">no game is being played</p><div id="running"></div></section>
<section><h2>Just finished</h2><ul id="finished"></ul></section>
</div>)";
    return page("Tournament, live", body, "live", "null", assets::live_js);
}

std::string play_page(const nlohmann::json& arena) {
    // The board scrolls between a header and a tray that stay: the hand is always in view.
    const char* const body = R"html(<div class="play-app">
<header class="play-top">
<div class="play-line"><h1>Bananagrams</h1> <strong id="you"></strong>
<span id="phase">connecting...</span> <span id="connection" class="muted">connecting...</span>
<a id="to-board" href="/" hidden>Leaderboard</a> <button id="again" class="action" hidden>Play again</button></div>
<p id="match-line" class="play-line muted" hidden></p>
<div id="code-box" class="code-box" role="alert" hidden><label>Your code <input id="code-shown" readonly
size="26" spellcheck="false"></label> <button id="copy-code" class="action" type="button">Copy</button>
<button id="code-kept" class="action" type="button">I have kept it</button> <span id="code-copied" class="muted"></span>
<p>Your account is made. Keep this code: it is shown only now, and with your name it signs you in
here, from this or any other device (this browser remembers it). Anyone with it can play as you.</p></div>
<div class="play-line table-line"><span id="others"></span> <span id="bunch"></span>
<span id="counts" class="muted"></span></div>
<div class="status-line"><p id="status" role="status" aria-live="polite"></p>
<button id="send-anyway" class="action danger" hidden title="send the board as it is: a grid that is not legal puts you out">Send anyway</button></div>
</header>
<main class="play-main">
<section id="board-wrap" aria-label="your board"><div id="board" class="play-board"></div></section>
<aside class="play-side">
<h2>What happened</h2>
<ul id="said"></ul>
<p id="words" class="muted">the word list is loading</p>
<details><summary>How to play</summary>
<p>Drag a tile from your hand onto a square, or tap it and then the square. Drag a tile on the
board to move it, or onto your hand to take it back (or tap it, then a square or your hand). Or
click a square and type: each letter lays a tile from your hand and moves on, passing over a
tile of the same letter (the arrow in the square shows which way; space turns it, Backspace takes
one back, the arrow keys move).</p>
<p>Peel (or Enter) once every tile is on the board: the page first checks that every tile is
joined and every word is in the game's word list, and marks what is not; the host judges the
words, and a grid that is not legal puts you out. Dump puts the taken tile back for three.</p>
</details>
</aside>
</main>
<section id="sign-in" class="play-end" hidden aria-label="sign in to play">
<h2>Play in the arena</h2>
<form id="sign-in-form">
<p><label>Your name <input id="person-name" autocomplete="username" required maxlength="40" pattern="[A-Za-z0-9_.\-]{1,40}"></label></p>
<p><label>Your code <input id="person-code" type="password" autocomplete="current-password" maxlength="64"
aria-describedby="code-about"></label></p>
<p id="code-about" class="muted">The code your account was given when it was made (by you, signing up
here, or by the arena's organiser). New here? Choose a name and sign up: the page makes your code.</p>
<p><label>Against <select id="opponent"><option value="">whoever is waiting</option></select></label></p>
<p><button id="sign-in-play" class="action primary" type="submit">Play</button>
<button id="sign-up" class="action" type="button" hidden title="make an account with this name: the arena gives its code">Sign up</button></p>
<p id="sign-in-said" class="muted" role="status"></p>
</form>
</section>
<section id="end" class="play-end" hidden aria-live="assertive">
<h2 id="outcome"></h2><p id="how"></p><p id="marked" class="bad"></p>
<p id="host-said" class="muted"></p>
<p id="end-links" hidden><a href="/">The leaderboard</a> <a id="end-own-page" href="/">your page</a>
<a id="end-match-page" href="/">the match</a></p>
<button id="close-end" class="action">Show my board</button>
<button id="play-again" class="action primary" hidden>Play again</button>
</section>
<footer id="tray" class="play-tray">
<div id="hand" class="hand" aria-label="your hand"></div>
<div class="tray-buttons">
<button id="peel" class="action primary" title="send your board (Enter)">Peel</button>
<button id="dump" class="action" title="put the taken tile back for three">Dump</button>
<button id="all-back" class="action quiet" title="every tile on the board back to your hand">All back</button>
</div>
</footer>
</div>)html";
    return page("Bananagrams: your seat", body, "seat", script_json(arena), assets::play_js);
}

std::string live_game_page() {
    // No records in the page: game.js takes them from /events (a null log says so).
    return page("Bananagrams game, live", game_body(true), "log", "null", assets::game_js);
}

}  // namespace bg::viewer

namespace bg::viewer {

namespace {

// An arena's page: its header's links to the others, the body, and the script that draws it
// after the pages' shared one (viewer/arena.js). `before`: a library's script, inline.
std::string arena_page(const std::string& title, const std::string& body, const char* script,
                       const std::string& before = "") {
    const std::string header = fmt::format(R"(<header class="arena-top">
<nav aria-label="the arena"><a href="/">Leaderboard</a> <a href="/live">Playing now</a>
<a href="/play">Play</a> <a href="/seasons">Seasons</a></nav>
<h1 id="title">{}</h1>
<div><span id="connection" class="connecting">connecting...</span> <span id="updated" class="muted"></span></div>
</header>
)",
                                           title);
    const std::string more = before.empty() ? std::string() : "\n<script>" + before + "</script>";
    return page(title, header + body, "arena", "null",
                std::string(assets::arena_js) + "\n" + script, more);
}

}  // namespace

std::string arena_board_page() {
    const char* const body = R"(<div class="report arena">
<p id="legend" class="muted">A rating is the arena's estimate of how strong a bot or a person is:
higher is stronger, and a new one starts at 25.<span id="anchor-said"></span> A rating marked "?"
is provisional: fewer than 10 matches, and still moving fast. The bar beside it is where the
rating may truly lie; each board is ranked by the bar's low end, what the arena is sure of, so
one that has proven itself ranks above one that may have been lucky. Click a column's heading,
or press Enter on it, to sort.</p>
<section><h2>Bots</h2><div class="scroll"><table id="bots" class="ladder"></table></div>
<p id="bots-none" class="muted" hidden>no bot has played yet</p></section>
<section><h2>People</h2><div class="scroll"><table id="people" class="ladder"></table></div>
<p id="people-none" class="muted" hidden>no person has played yet</p></section>
</div>)";
    return arena_page("Bananagrams arena", body, assets::arena_board_js);
}

std::string arena_bot_page(const std::string& chart_js) {
    const char* const body = R"(<div class="report arena">
<p id="about"></p>
<p id="paused" class="bad" hidden></p>
<section><h2>Rating after each match</h2>
<div class="chart-box"><canvas id="chart" role="img" aria-label="rating after each match"></canvas></div>
<p id="chart-note" class="muted"></p></section>
<section id="versions-part"><h2>Versions</h2><div class="scroll"><table id="versions"></table></div></section>
<section><h2>A game, on average</h2><div class="scroll"><table id="per-game"></table></div></section>
<section><h2>Why it was out of a game</h2><div class="scroll"><table id="out"></table></div>
<p id="out-none" class="muted" hidden>never out of a game</p></section>
<section><h2>Matches</h2><div class="scroll"><table id="matches"></table></div></section>
<section id="seasons-part" hidden><h2>Seasons</h2><div class="scroll"><table id="seasons"></table></div></section>
</div>)";
    return arena_page("A bot in the arena", body, assets::arena_bot_js, chart_js);
}

std::string arena_match_page() {
    const char* const body = R"(<div class="report arena">
<p id="about"></p>
<section><h2>Who gained and lost what</h2><div class="scroll"><table id="entrants"></table></div></section>
<section><h2>The deal, in every rotation</h2><div id="rotations" class="rotations"></div></section>
</div>)";
    return arena_page("A match in the arena", body, assets::arena_match_js);
}

std::string arena_live_page() {
    const char* const body = R"(<div class="report arena">
<p id="rule" class="muted"></p>
<section><h2>Playing now</h2><ul id="playing"></ul><p id="idle" class="muted">no match is being played</p></section>
<section><h2 id="shown-title">Just over, as it was played</h2>
<p id="shown-about" class="muted">no match is over yet</p><div id="shown" class="rotations"></div></section>
<section><h2>Over lately</h2><ul id="recent"></ul></section>
</div>)";
    return arena_page("Playing now in the arena", body, assets::arena_live_js);
}

std::string arena_season_page(bool one) {
    if (!one)
        return arena_page("Seasons in the arena", R"(<div class="report arena">
<section><h2>Seasons</h2><div class="scroll"><table id="seasons"></table></div>
<p id="none" class="muted" hidden>no season yet</p></section>
</div>)",
                          assets::arena_season_js);
    const char* const body = R"(<div class="report arena">
<p id="about"></p>
<section id="finals-part" hidden><h2>Finals</h2><p id="finals-about" class="muted"></p>
<div class="scroll"><table id="finals"></table></div></section>
<section><h2>Bots</h2><p id="board-about" class="muted"></p>
<div class="scroll"><table id="bots" class="ladder"></table></div></section>
<section><h2>People</h2><div class="scroll"><table id="people" class="ladder"></table></div></section>
<section><h2>Rules</h2><p id="rules" class="muted"></p><p><a href="/seasons">Every season</a></p></section>
</div>)";
    return arena_page("A season in the arena", body, assets::arena_season_js);
}

}  // namespace bg::viewer
