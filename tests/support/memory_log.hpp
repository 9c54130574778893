// A LogSink that keeps a game's inputs and decisions in memory, in order, for the tests that
// drive a Referee without processes (the property tests, the transcripts, the game fuzzer).
#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/event_log.hpp"

namespace bg {

class MemoryLog final : public LogSink {
  public:
    void start(const GameSetup&, std::uint64_t) override { started = true; }
    void input(const Input& in, std::uint64_t) override { inputs.push_back(in); }
    void decision(const Decision& d, std::uint64_t) override { decisions.push_back(d); }
    void usage(PlayerId, const PlayerUsage& u, std::uint64_t) override { usages.push_back(u); }
    void result(const nlohmann::json& r, std::uint64_t) override { result_record = r; }
    void note(int seat, const std::string& what, std::uint64_t) override {
        notes.emplace_back(seat, what);
    }
    void flush() override {}
    bool failed() const override { return false; }

    bool started = false;
    std::vector<Input> inputs;
    std::vector<Decision> decisions;
    std::vector<PlayerUsage> usages;
    std::optional<nlohmann::json> result_record;
    std::vector<std::pair<int, std::string>> notes;
};

}  // namespace bg
