// The sandbox's command lines: which paths a player's command names, and what each player may
// not see. (The e2e security tests show that bwrap then does what these say.)
#include "transport/sandbox.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

namespace fs = std::filesystem;

namespace {

// Whether `argv` holds `a` followed by `b`.
bool has_pair(const std::vector<std::string>& argv, const std::string& a, const std::string& b) {
    for (std::size_t i = 0; i + 1 < argv.size(); ++i)
        if (argv[i] == a && argv[i + 1] == b)
            return true;
    return false;
}

// Whether the player started by `launch` has `path` covered: an empty folder on a folder,
// /dev/null on a file.
bool hides(const bg::Launch& launch, const std::string& path) {
    const std::vector<std::string> null_on_it = {"--ro-bind", "/dev/null", path};
    return has_pair(launch.argv, "--tmpfs", path) ||
           std::search(launch.argv.begin(), launch.argv.end(), null_on_it.begin(),
                       null_on_it.end()) != launch.argv.end();
}

}  // namespace

TEST_CASE("sandbox: the paths a command names", "[sandbox]") {
    const std::string dir = fs::absolute("sandbox-" + std::to_string(getpid())).string();
    fs::create_directories(dir + "/bot");
    std::ofstream(dir + "/bot/run.py") << "";
    std::ofstream(dir + "/words.txt") << "";
    const auto paths = bg::paths_named_by("exec python3 '" + dir + "/bot/run.py' --dict=" + dir +
                                          "/words.txt /nonexistent/x /proc/self/fd plain");
    CHECK(paths == std::vector<std::string>{dir + "/bot/run.py", dir + "/words.txt"});
    fs::remove_all(dir);
}

TEST_CASE("sandbox: each player is kept from the log and the others' folders, not the word list",
          "[sandbox]") {
    const std::string dir = fs::absolute("sandbox-" + std::to_string(getpid())).string();
    for (const char* sub : {"/a", "/b", "/shared"})
        fs::create_directories(dir + sub);
    // The word list lies in player b's folder, which the others may not see.
    for (const char* file : {"/a/bot", "/b/bot", "/b/words.txt", "/shared/lib.py", "/game.log"})
        std::ofstream(dir + file) << "";
    const std::string words = dir + "/b/words.txt";
    bg::SandboxConfig config;
    config.secret_paths = {dir + "/game.log"};
    config.shared_paths = {words};
    config.set_env = {"BANANAGRAMS_WORDLIST=" + words};
    const std::vector<std::string> commands = {
        "exec " + dir + "/a/bot " + dir + "/shared/lib.py",
        "exec " + dir + "/b/bot " + dir + "/shared/lib.py --dict " + words, "exec python3"};
    auto made = bg::Sandbox::create(config, commands);
    REQUIRE(std::holds_alternative<bg::Sandbox>(made));
    const auto& sandbox = std::get<bg::Sandbox>(made);

    const bg::Launch a = sandbox.launch(0), b = sandbox.launch(1), c = sandbox.launch(2);
    CHECK(a.sandboxed);
    const std::vector<std::string> words_back = {"--ro-bind", words, words};
    for (const auto* launch : {&a, &b, &c}) {
        // The log: from everyone.
        CHECK(hides(*launch, dir + "/game.log"));
        // The word list: to everyone, named by the variable, bound back after whatever hid its
        // folder.
        CHECK_FALSE(hides(*launch, words));
        CHECK(has_pair(launch->argv, "BANANAGRAMS_WORDLIST", words));
        const auto back = std::search(launch->argv.begin(), launch->argv.end(), words_back.begin(),
                                      words_back.end());
        REQUIRE(back != launch->argv.end());
        for (std::size_t i = 0; i + 1 < launch->argv.size(); ++i)
            if (launch->argv[i] == "--tmpfs" && launch->argv[i + 1] == dir + "/b")
                CHECK(launch->argv.begin() + static_cast<std::ptrdiff_t>(i) < back);
    }
    // The others' folders, but not one a player's own files are in.
    CHECK(hides(a, dir + "/b"));
    CHECK_FALSE(hides(a, dir + "/a"));
    CHECK(hides(b, dir + "/a"));
    CHECK_FALSE(hides(a, dir + "/shared"));
    CHECK(hides(c, dir + "/a"));
    CHECK(hides(c, dir + "/b"));
    CHECK(hides(c, dir + "/shared"));
    // Nothing of the system, and the command itself last, through prlimit and sh.
    CHECK_FALSE(hides(c, "/usr/bin"));
    CHECK(std::vector<std::string>(c.argv.end() - 3, c.argv.end()) ==
          std::vector<std::string>{"/bin/sh", "-c", "exec python3"});
    CHECK(has_pair(a.argv, "--setenv", "HOME"));
    fs::remove_all(dir);
}

TEST_CASE(
    "sandbox: a hosted bot's folder comes back to it alone, read-only, over the secret folder of "
    "every hosted bot's, and it runs there",
    "[sandbox]") {
    const std::string dir = fs::absolute("sandbox-hosted-" + std::to_string(getpid())).string();
    for (const char* sub : {"/hosted/aaa", "/hosted/bbb"})
        fs::create_directories(dir + sub);
    bg::SandboxConfig config;
    config.secret_paths = {dir + "/hosted"};
    // The second names the other's folder in its command: it still may not read it.
    const std::vector<std::string> commands = {"python3 bot.py",
                                               "cat " + dir + "/hosted/aaa/bot.py", "exec house"};
    auto made = bg::Sandbox::create(config, commands, {dir + "/hosted/aaa", dir + "/hosted/bbb"});
    REQUIRE(std::holds_alternative<bg::Sandbox>(made));
    const auto& sandbox = std::get<bg::Sandbox>(made);
    const bg::Launch a = sandbox.launch(0), b = sandbox.launch(1), house = sandbox.launch(2);
    const auto at = [](const bg::Launch& launch, const std::vector<std::string>& words) {
        return std::search(launch.argv.begin(), launch.argv.end(), words.begin(), words.end()) -
               launch.argv.begin();
    };
    const std::string aaa = dir + "/hosted/aaa", bbb = dir + "/hosted/bbb";
    for (const auto* launch : {&a, &b, &house})
        CHECK(hides(*launch, dir + "/hosted"));
    // Its own, after the secret folder is hidden; and its working directory.
    const auto own = at(a, {"--ro-bind", aaa, aaa, "--chdir", aaa});
    CHECK(own < static_cast<std::ptrdiff_t>(a.argv.size()));
    CHECK(at(a, {"--tmpfs", dir + "/hosted"}) < own);
    CHECK(at(b, {"--ro-bind", bbb, bbb, "--chdir", bbb}) <
          static_cast<std::ptrdiff_t>(b.argv.size()));
    // Never the other's, named or not; never to a house bot.
    CHECK(at(b, {"--ro-bind", aaa, aaa}) == static_cast<std::ptrdiff_t>(b.argv.size()));
    CHECK(at(house, {"--ro-bind", aaa, aaa}) == static_cast<std::ptrdiff_t>(house.argv.size()));
    CHECK(at(house, {"--ro-bind", bbb, bbb}) == static_cast<std::ptrdiff_t>(house.argv.size()));
    CHECK(!has_pair(house.argv, "--chdir", aaa));
    fs::remove_all(dir);
}
