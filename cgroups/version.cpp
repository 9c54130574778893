#include "cgroups/version.hpp"

#include <cstring>

#include <fmt/format.h>

namespace bg::cgroups {

const Version& version_1();
const Version& version_2();

const Version& version(int number) {
    return number == 2 ? version_2() : version_1();
}

std::string set_file(const std::string& dir, const std::string& file, const std::string& value) {
    const std::string path = dir + "/" + file;
    if (const int error = write_text(path, value))
        return fmt::format("cannot set {} to {}: {}", path, value, std::strerror(error));
    return "";
}

}  // namespace bg::cgroups
