// The event log: what a referee records of a game, in order. A LogSink takes typed records;
// EventLog writes them as JSON Lines, one record per line, each with a sequence number and a
// monotonic timestamp: {"seq":0,"t":0,"start":{...}} first, then "input" and "decision"
// records in the order the referee handled them, then (version 2) a "usage" record a player
// once the game is over and its processes are gone, then {"result":{...}}; (version 6) "note"
// records anywhere between the start and the result.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/events.hpp"
#include "record/result.hpp"
#include "record/setup.hpp"

namespace bg {

class LogSink {
  public:
    virtual ~LogSink() = default;
    virtual void start(const GameSetup& setup, std::uint64_t t_ns) = 0;
    virtual void input(const Input& input, std::uint64_t t_ns) = 0;
    virtual void decision(const Decision& decision, std::uint64_t t_ns) = 0;
    // What a player used, once the game is over and its processes are gone (log version 2).
    virtual void usage(PlayerId player, const PlayerUsage& usage, std::uint64_t t_ns) = 0;
    virtual void result(const nlohmann::json& result, std::uint64_t t_ns) = 0;
    // Something of a seat (`seat`: its player; -1 for none) that changes nothing in the game: a
    // connection taken, dropped or refused (log version 6).
    virtual void note(int seat, const std::string& what, std::uint64_t t_ns) = 0;
    // Everything appended is stored before any effect of it is sent to a player.
    virtual void flush() = 0;
    // A record could not be stored: the referee aborts the game at once.
    virtual bool failed() const = 0;
};

class EventLog final : public LogSink {
  public:
    // Without a file, records are numbered but neither built nor written.
    explicit EventLog(std::FILE* file = nullptr) : file_(file) {}

    void start(const GameSetup& setup, std::uint64_t t_ns) override;
    void input(const Input& input, std::uint64_t t_ns) override;
    void decision(const Decision& decision, std::uint64_t t_ns) override;
    void usage(PlayerId player, const PlayerUsage& usage, std::uint64_t t_ns) override;
    void result(const nlohmann::json& result, std::uint64_t t_ns) override;
    void note(int seat, const std::string& what, std::uint64_t t_ns) override;
    void flush() override;
    bool failed() const override { return failed_; }
    // Why the log could not be written, once failed().
    const std::string& error() const { return error_; }
    // Each record as it is appended, written or not (a live view of the game).
    using Observer = std::function<void(const nlohmann::json& record)>;
    void observe(Observer observer) { observer_ = std::move(observer); }

  private:
    bool writing() const { return file_ != nullptr && !failed_; }
    bool building() const { return writing() || observer_ != nullptr; }
    void append(const char* kind, const nlohmann::json& body, std::uint64_t t_ns);
    void fail(std::string error);

    std::FILE* file_;
    Observer observer_;
    std::uint64_t seq_ = 0;
    bool failed_ = false;
    std::string error_;
    int version_ = log_version;  // the start record's: what each record holds
};

}  // namespace bg
