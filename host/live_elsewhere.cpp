// The host linked without a server (live.hpp): --serve runs host-live in its place.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "core/text.hpp"
#include "host/live.hpp"

namespace bg::live {

bool serves() {
    return false;
}

// Users never run host-live, so once installed it is out of the PATH: BG_LIVE_HOST_DIR, relative
// to the host's folder, holds it (../libexec/bananagrams-host/bananagrams-host-live beside
// bin/bananagrams-host); in a build tree it sits beside the host (build/host-live). The first of
// the two that exists is run.
std::string hand_over(char** argv) {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error)
        return fmt::format(
            "--serve needs host-live, the host built with its live server, which is found from "
            "this program's own path, and that cannot be read: {}",
            error.message());
    const std::string name = self.filename().string() + "-live";
    std::vector<std::filesystem::path> places;
#ifdef BG_LIVE_HOST_DIR
    places.push_back(self.parent_path() / BG_LIVE_HOST_DIR / name);
#endif
    places.push_back(self.parent_path() / name);
    // execv returns only when it failed: a place where the program is not is passed over, any
    // other failure (a program there that cannot be run) is said.
    for (const auto& place : places) {
        ::execv(place.c_str(), argv);
        if (errno != ENOENT && errno != ENOTDIR)
            return fmt::format("--serve needs {}, the host built with its live server: {}",
                               escape_for_terminal(place.string()), std::strerror(errno));
    }
    std::string tried;
    for (const auto& place : places)
        tried += (tried.empty() ? "" : " or ") + escape_for_terminal(place.string());
    return fmt::format("--serve needs the host built with its live server, {}: {}", tried,
                       std::strerror(ENOENT));
}

std::variant<std::unique_ptr<Observer>, std::string> serve(uv_loop_t*, const serve::Address&,
                                                           remote::Desk*,
                                                           std::optional<serve::ForPlayers>) {
    return std::string("this host has no server: --serve runs host-live");
}

}  // namespace bg::live
