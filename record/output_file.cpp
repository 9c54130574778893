#include "record/output_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace bg {

std::variant<OutputFile, std::string> OutputFile::create(const std::string& path) {
    OutputFile file;
    struct stat before {};
    file.made_ = ::stat(path.c_str(), &before) != 0;
    file.path_ = path;
    // Close-on-exec ("e"): no player inherits it.
    file.file_ = std::fopen(path.c_str(), "we");
    if (!file.file_)
        return std::string(std::strerror(errno));
    return file;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : file_(std::exchange(other.file_, nullptr)),
      path_(std::move(other.path_)),
      made_(other.made_) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
    if (this != &other) {
        close();
        file_ = std::exchange(other.file_, nullptr);
        path_ = std::move(other.path_);
        made_ = other.made_;
    }
    return *this;
}

OutputFile::~OutputFile() {
    close();
}

std::string OutputFile::close() {
    if (!file_)
        return "";
    const bool written = std::ferror(file_) == 0;
    const bool closed = std::fclose(std::exchange(file_, nullptr)) == 0;
    if (written && closed)
        return "";
    // An earlier write's errno is long gone; the close's is its own.
    return closed ? std::string("a write to it failed") : std::string(std::strerror(errno));
}

void OutputFile::abandon() {
    close();
    if (made_)
        std::remove(path_.c_str());
    made_ = false;
}

}  // namespace bg
