#include "cgroups/layout.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

#include <fmt/format.h>

namespace bg::cgroups {

namespace {

std::vector<std::string_view> split(std::string_view text, char by) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const auto at = text.find(by, start);
        parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
        if (at == std::string_view::npos)
            return parts;
        start = at + 1;
    }
}

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    for (auto line : split(text, '\n'))
        if (!line.empty())
            lines.push_back(line);
    return lines;
}

// mountinfo writes a space, a tab, a newline and a backslash in a path as \040, \011, \012 and
// \134.
std::string unescape(std::string_view field) {
    std::string out;
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size()) {
            int value = 0;
            const auto [end, error] =
                std::from_chars(field.data() + i + 1, field.data() + i + 4, value, 8);
            if (error == std::errc() && end == field.data() + i + 4) {
                out += static_cast<char>(value);
                i += 3;
                continue;
            }
        }
        out += field[i];
    }
    return out;
}

// The path of cgroup `path` under a mount that shows cgroup `root` at its mount point, or
// nullopt when it lies outside.
std::optional<std::string> under(const Mount& mount, const std::string& path) {
    if (mount.root == "/")
        return path == "/" ? mount.path : mount.path + path;
    if (path == mount.root)
        return mount.path;
    if (path.size() > mount.root.size() && path.compare(0, mount.root.size(), mount.root) == 0 &&
        path[mount.root.size()] == '/')
        return mount.path + path.substr(mount.root.size());
    return std::nullopt;
}

std::string joined(const std::vector<std::string>& names, const char* between = " ") {
    std::string out;
    for (const auto& name : names)
        out += (out.empty() ? "" : between) + name;
    return out;
}

bool lists(const std::vector<std::string>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::string_view to_string(Controller controller) {
    switch (controller) {
        case Controller::cpu:
            return "cpu";
        case Controller::cpuacct:
            return "cpuacct";
        case Controller::memory:
            return "memory";
        case Controller::pids:
            return "pids";
        case Controller::cpuset:
            return "cpuset";
    }
    return "?";
}

std::vector<Mount> parse_mountinfo(std::string_view mountinfo) {
    std::vector<Mount> mounts;
    for (const auto line : lines_of(mountinfo)) {
        const auto fields = split(line, ' ');
        const auto dash = std::find(fields.begin(), fields.end(), "-");
        if (fields.size() < 5 || dash == fields.end() || fields.end() - dash < 4)
            continue;
        const std::string_view type = dash[1];
        if (type != "cgroup" && type != "cgroup2")
            continue;
        Mount mount;
        mount.version = type == "cgroup2" ? 2 : 1;
        mount.root = unescape(fields[3]);
        mount.path = unescape(fields[4]);
        if (mount.version == 1)
            for (const auto option : split(dash[3], ','))
                if (!option.empty() && option != "rw" && option != "ro" &&
                    option.find('=') == std::string_view::npos)
                    mount.controllers.emplace_back(option);
        mounts.push_back(std::move(mount));
    }
    return mounts;
}

std::vector<Membership> parse_proc_cgroup(std::string_view text) {
    std::vector<Membership> memberships;
    for (const auto line : lines_of(text)) {
        const auto first = line.find(':');
        const auto second = first == std::string_view::npos ? first : line.find(':', first + 1);
        if (second == std::string_view::npos)
            continue;
        Membership m;
        const auto id = line.substr(0, first);
        const auto controllers = line.substr(first + 1, second - first - 1);
        m.path = std::string(line.substr(second + 1));
        m.unified = id == "0" && controllers.empty();
        for (const auto c : split(controllers, ','))
            if (!c.empty() && c.find('=') == std::string_view::npos)
                m.controllers.emplace_back(c);
        memberships.push_back(std::move(m));
    }
    return memberships;
}

bool Hierarchy::has(Controller c) const {
    return std::find(controllers.begin(), controllers.end(), c) != controllers.end();
}

std::size_t Layout::index_of(Controller c) const {
    for (std::size_t i = 0; i < hierarchies.size(); ++i)
        if (hierarchies[i].has(c))
            return i;
    return hierarchies.size();
}

const Hierarchy& Layout::of(Controller c) const {
    return hierarchies.at(index_of(c));
}

bool Layout::uses_v1() const {
    return std::any_of(hierarchies.begin(), hierarchies.end(),
                       [](const Hierarchy& h) { return h.version == 1; });
}

std::variant<Layout, std::string> find_layout(
    const std::vector<Mount>& mounts, const std::vector<Membership>& memberships,
    const std::vector<Controller>& needed,
    const std::function<std::optional<std::string>(const std::string& path)>& read) {
    Layout layout;
    std::vector<std::string> missing;
    // The unified hierarchy, and what it offers at this process's cgroup, looked up once.
    std::optional<std::string> unified_own;
    std::vector<std::string> unified_offers;
    bool unified_looked = false;
    const auto unified = [&]() -> const std::optional<std::string>& {
        if (unified_looked)
            return unified_own;
        unified_looked = true;
        const auto mount = std::find_if(mounts.begin(), mounts.end(),
                                        [](const Mount& m) { return m.version == 2; });
        const auto member = std::find_if(memberships.begin(), memberships.end(),
                                         [](const Membership& m) { return m.unified; });
        if (mount == mounts.end() || member == memberships.end())
            return unified_own;
        unified_own = under(*mount, member->path);
        if (unified_own)
            if (auto offered = read(*unified_own + "/cgroup.controllers")) {
                while (!offered->empty() && (offered->back() == '\n' || offered->back() == ' '))
                    offered->pop_back();
                for (const auto c : split(*offered, ' '))
                    if (!c.empty())
                        unified_offers.emplace_back(c);
            }
        return unified_own;
    };
    const auto add = [&](int version, const std::string& mount, const std::string& own,
                         Controller c) {
        for (auto& h : layout.hierarchies)
            if (h.mount == mount) {
                h.controllers.push_back(c);
                return;
            }
        layout.hierarchies.push_back({version, mount, own, {c}});
    };
    for (const Controller c : needed) {
        const std::string name(to_string(c));
        bool found = false;
        for (const auto& mount : mounts) {
            if (mount.version != 1 || !lists(mount.controllers, name))
                continue;
            const auto member = std::find_if(
                memberships.begin(), memberships.end(),
                [&](const Membership& m) { return !m.unified && lists(m.controllers, name); });
            if (member == memberships.end())
                continue;
            if (const auto own = under(mount, member->path)) {
                add(1, mount.path, *own, c);
                found = true;
                break;
            }
        }
        if (found)
            continue;
        // In v2, every cgroup's cpu.stat counts its CPU time: cpuacct needs no controller.
        if (const auto& own = unified();
            own && (c == Controller::cpuacct || lists(unified_offers, name))) {
            const auto mount = std::find_if(mounts.begin(), mounts.end(),
                                            [](const Mount& m) { return m.version == 2; });
            add(2, mount->path, *own, c);
            continue;
        }
        missing.push_back(name);
    }
    if (!missing.empty()) {
        const std::string names = joined(missing, ", ");
        const auto& own = unified();
        if (own)
            return fmt::format(
                "the cgroup controllers {} are not to be had at this process's cgroup {} (it "
                "offers: {}): as a user, run it in a systemd scope with them delegated "
                "(systemd-run "
                "--user --scope -p Delegate=yes, and Delegate=cpu cpuset io memory pids for "
                "user@.service); see docs/security.md, \"Machine shares\"",
                names, *own, unified_offers.empty() ? std::string("none") : joined(unified_offers));
        return fmt::format(
            "the cgroup controllers {} are not mounted here (neither as cgroup v1 hierarchies nor "
            "in a cgroup2 file system), or this process's cgroup lies outside what is mounted",
            names);
    }
    return layout;
}

std::optional<std::vector<int>> parse_cpu_list(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.remove_suffix(1);
    std::set<int> cpus;
    if (text.empty())
        return std::vector<int>{};
    for (const auto range : split(text, ',')) {
        const auto dash = range.find('-');
        const auto number = [](std::string_view digits) -> std::optional<int> {
            int value = 0;
            const auto [end, error] =
                std::from_chars(digits.data(), digits.data() + digits.size(), value);
            if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
                value < 0 || value > 65535)
                return std::nullopt;
            return value;
        };
        const auto first = number(range.substr(0, dash));
        const auto last = dash == std::string_view::npos ? first : number(range.substr(dash + 1));
        if (!first || !last || *last < *first)
            return std::nullopt;
        for (int cpu = *first; cpu <= *last; ++cpu)
            cpus.insert(cpu);
    }
    return std::vector<int>(cpus.begin(), cpus.end());
}

std::string format_cpu_list(const std::vector<int>& cpus) {
    std::string out;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
            ++j;
        out += (out.empty() ? "" : ",") + std::to_string(cpus[i]);
        if (j > i)
            out += "-" + std::to_string(cpus[j]);
        i = j + 1;
    }
    return out;
}

std::optional<std::vector<int>> choose_cpus(const std::vector<int>& available,
                                            const std::vector<int>& taken, int count) {
    std::vector<int> chosen;
    for (const int cpu : available) {
        if (static_cast<int>(chosen.size()) == count)
            break;
        if (std::find(taken.begin(), taken.end(), cpu) == taken.end())
            chosen.push_back(cpu);
    }
    if (count < 1 || static_cast<int>(chosen.size()) < count)
        return std::nullopt;
    return chosen;
}

}  // namespace bg::cgroups
