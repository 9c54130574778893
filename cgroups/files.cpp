#include "cgroups/files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace bg {

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
    if (this != &other)
        reset(std::exchange(other.fd_, -1));
    return *this;
}

void UniqueFd::reset(int fd) {
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = fd;
}

}  // namespace bg

namespace bg::cgroups {

FileLock::FileLock(int fd, int operation) : fd_(fd) {
    while (::flock(fd_, operation) != 0 && errno == EINTR) {
    }
}

FileLock::~FileLock() {
    ::flock(fd_, LOCK_UN);
}

UniqueFd open_directory(const std::string& path) {
    return UniqueFd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

std::optional<std::string> read_text(const std::string& path) {
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd)
        return std::nullopt;
    std::string text;
    char buffer[4096];
    while (true) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return std::nullopt;
        if (n == 0)
            return text;
        text.append(buffer, static_cast<std::size_t>(n));
    }
}

int write_text(const std::string& path, std::string_view text) {
    const UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    if (!fd)
        return errno;
    const ssize_t n = ::write(fd.get(), text.data(), text.size());
    return n < 0 ? errno : n == static_cast<ssize_t>(text.size()) ? 0 : EIO;
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

std::string trimmed(std::optional<std::string> text) {
    if (!text)
        return "";
    while (!text->empty() && (text->back() == '\n' || text->back() == ' '))
        text->pop_back();
    return *text;
}

std::optional<std::uint64_t> key_value(const std::optional<std::string>& text,
                                       std::string_view key) {
    if (!text)
        return std::nullopt;
    std::size_t at = 0;
    while (at < text->size()) {
        const auto end = text->find('\n', at);
        const std::string_view line(text->data() + at,
                                    (end == std::string::npos ? text->size() : end) - at);
        if (line.size() > key.size() && line.compare(0, key.size(), key) == 0 &&
            line[key.size()] == ' ')
            return std::strtoull(std::string(line.substr(key.size() + 1)).c_str(), nullptr, 10);
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> number_in(const std::string& path) {
    const auto text = read_text(path);
    if (!text || text->empty() || !std::isdigit(static_cast<unsigned char>((*text)[0])))
        return std::nullopt;
    return std::strtoull(text->c_str(), nullptr, 10);
}

std::vector<int> pids_in(const std::string& dir) {
    std::vector<int> pids;
    const auto text = read_text(dir + "/cgroup.procs");
    if (!text)
        return pids;
    std::size_t at = 0;
    while (at < text->size()) {
        const auto end = text->find('\n', at);
        const int pid = std::atoi(text->c_str() + at);
        if (pid > 0)
            pids.push_back(pid);
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return pids;
}

std::vector<std::string> subdirectories(const std::string& dir, std::string_view prefix) {
    std::vector<std::string> names;
    DIR* d = ::opendir(dir.c_str());
    if (!d)
        return names;
    while (const dirent* entry = ::readdir(d)) {
        const std::string name = entry->d_name;
        if (entry->d_type == DT_DIR && name.compare(0, prefix.size(), prefix) == 0)
            names.push_back(name);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return names;
}

std::string parent_of(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace bg::cgroups
