// An arena's database for one test: made afresh in the temporary folder under a name of the
// test's, and removed (with its WAL files) when the test is over.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <variant>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "arena/store.hpp"

namespace bg::test {

struct ScratchArena {
    explicit ScratchArena(const std::string& name)
        : path((std::filesystem::temp_directory_path() /
                fmt::format("bg-arena-test-{}-{}.db", ::getpid(), name))
                   .string()) {
        remove();
        auto made = arena::Store::open(path, true);
        REQUIRE(std::holds_alternative<std::unique_ptr<arena::Store>>(made));
        store = std::move(std::get<std::unique_ptr<arena::Store>>(made));
    }
    ~ScratchArena() {
        store.reset();
        remove();
    }
    void remove() const {
        for (const char* suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(path + suffix);
    }
    std::string bytes() const {
        std::string all;
        for (const char* suffix : {"", "-wal"}) {
            std::ifstream in(path + suffix, std::ios::binary);
            all.append(std::istreambuf_iterator<char>(in), {});
        }
        return all;
    }
    std::string path;
    std::unique_ptr<arena::Store> store;
};

}  // namespace bg::test
