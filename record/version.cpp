#include "record/version.hpp"

namespace bg {

// BG_VERSION comes from CMake, for this file alone: a new version rebuilds one object.
std::string_view version() {
    return BG_VERSION;
}

std::string version_line(std::string_view program) {
    return std::string(program) + " " + std::string(version());
}

}  // namespace bg
