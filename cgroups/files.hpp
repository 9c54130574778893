// The cgroup file system's files, read and written as the kernel wants them (one write a value,
// whole lines back), and the descriptors and locks that hold its directories: each owned, and
// closed by its owner alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bg {

// A file descriptor, closed with its owner.
class UniqueFd {
  public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept;
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd() { reset(); }

    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }
    void reset(int fd = -1);
    // Gives it up, unclosed, to a new owner.
    int release() { return std::exchange(fd_, -1); }

  private:
    int fd_ = -1;
};

}  // namespace bg

namespace bg::cgroups {

// flock() on a descriptor for as long as it lives.
class FileLock {
  public:
    FileLock(int fd, int operation);
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock();

  private:
    int fd_;
};

// A directory opened for its descriptor (locks), or an invalid one with errno set.
UniqueFd open_directory(const std::string& path);

std::optional<std::string> read_text(const std::string& path);
// 0, or the errno of the open or the write.
int write_text(const std::string& path, std::string_view text);
bool exists(const std::string& path);
// The text without its trailing newlines and spaces ("" when there is none).
std::string trimmed(std::optional<std::string> text);
// The number after `key` in a file of "key value" lines.
std::optional<std::uint64_t> key_value(const std::optional<std::string>& text,
                                       std::string_view key);
// The number a file holds alone.
std::optional<std::uint64_t> number_in(const std::string& path);
// The processes in a cgroup (its cgroup.procs).
std::vector<int> pids_in(const std::string& dir);
// The names of `dir`'s subdirectories that start with `prefix`, sorted.
std::vector<std::string> subdirectories(const std::string& dir, std::string_view prefix);
std::string parent_of(const std::string& path);

}  // namespace bg::cgroups
