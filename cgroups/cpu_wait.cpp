#include "cgroups/cpu_wait.hpp"

#include <charconv>

#include <fmt/format.h>

namespace bg::cgroups {

namespace {

// The unsigned number at the start of `text`, and what follows it.
std::optional<std::uint64_t> number_at(std::string_view& text) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end == text.data())
        return std::nullopt;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    return value;
}

// An increase of a counter, or nothing when it went down (a thread id used again).
std::optional<std::uint64_t> grown(std::uint64_t from, std::uint64_t to) {
    return to >= from ? std::optional(to - from) : std::nullopt;
}

}  // namespace

std::optional<TaskTimes> parse_schedstat(std::string_view text) {
    const auto run = number_at(text);
    if (!run || !text.starts_with(' '))
        return std::nullopt;
    text.remove_prefix(1);
    const auto wait = number_at(text);
    if (!wait || !text.starts_with(' '))
        return std::nullopt;
    text.remove_prefix(1);
    if (!number_at(text) || !(text.empty() || text == "\n"))
        return std::nullopt;
    return TaskTimes{*run, *wait};
}

std::optional<std::uint64_t> parse_pressure_some(std::string_view text) {
    if (!text.starts_with("some "))
        return std::nullopt;
    const auto line_end = text.find('\n');
    const std::string_view line = text.substr(0, line_end);
    const auto at = line.find(" total=");
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = line.substr(at + 7);
    const auto usec = number_at(rest);
    if (!usec || !rest.empty() || *usec > UINT64_MAX / 1000)
        return std::nullopt;
    return *usec * 1000;
}

std::vector<int> ids_in(std::string_view text) {
    std::vector<int> ids;
    while (!text.empty()) {
        const auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        const auto id = number_at(line);
        if (id && line.empty() && *id > 0 && *id <= INT32_MAX)
            ids.push_back(static_cast<int>(*id));
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return ids;
}

CpuWait wait_between(const WaitSample& begin, const WaitSample& end) {
    if (begin.pressure_ns && end.pressure_ns)
        return {grown(*begin.pressure_ns, *end.pressure_ns).value_or(0), ""};
    if (!begin.schedstat || !end.schedstat)
        return {std::nullopt, "the kernel keeps no run delays (no schedstat, no CPU pressure)"};
    std::uint64_t wait = 0;
    std::uint64_t run = 0;
    for (const auto& [id, times] : end.tasks) {
        const auto before = begin.tasks.find(id);
        std::optional<std::uint64_t> waited = times.wait_ns, ran = times.run_ns;
        if (before != begin.tasks.end()) {
            waited = grown(before->second.wait_ns, times.wait_ns);
            ran = grown(before->second.run_ns, times.run_ns);
            if (!waited || !ran)  // another thread under the same id: all of it is new
                waited = times.wait_ns, ran = times.run_ns;
        }
        wait += *waited;
        run += *ran;
    }
    if (begin.cpu_ns && end.cpu_ns) {
        // What its cgroup ran that the threads seen did not: threads that ended unread.
        const std::uint64_t ran_in_all = grown(*begin.cpu_ns, *end.cpu_ns).value_or(0);
        if (ran_in_all > run + unseen_cpu_allowance_ns)
            return {wait, fmt::format("at least: threads that ran {:.1f} ms of its CPU time in "
                                      "the race ended before they could be read",
                                      static_cast<double>(ran_in_all - run) / 1e6)};
        return {wait, ""};
    }
    // Without it, the threads seen at the beginning and gone at the end say as much.
    int gone = 0;
    for (const auto& [id, times] : begin.tasks)
        gone += end.tasks.count(id) == 0;
    if (gone > 0)
        return {wait,
                fmt::format("at least: {} of its threads ended before they could be read", gone)};
    return {wait, ""};
}

}  // namespace bg::cgroups
