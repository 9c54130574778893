// The version of this build (semantic versioning: MAJOR.MINOR.PATCH), set in one place: the
// project() line of the top CMakeLists.txt. Every program's --version says it, and so do the
// start record of every log, the result, and the tournament's database.
#pragma once

#include <string>
#include <string_view>

namespace bg {

std::string_view version();
// "NAME VERSION", as --version prints it (the first line of GNU's form).
std::string version_line(std::string_view program);

}  // namespace bg
