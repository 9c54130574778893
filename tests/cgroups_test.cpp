// cgroups/layout: finding each controller's hierarchy from /proc's texts, on the kinds of
// machine the host runs on (v1 one hierarchy a controller, as here; pure v2 as root and in a
// delegated scope; systemd's hybrid; a container that shows a hierarchy from inside), and the
// CPU lists of cpusets; a CPU wait from the kernel's counters.
#include <catch2/catch.hpp>

#include <map>

#include "cgroups/cpu_wait.hpp"
#include "cgroups/layout.hpp"

using namespace bg::cgroups;

namespace {

// This project's machine: every controller a v1 hierarchy of its own, and an empty cgroup2.
const char* const v1_mountinfo =
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
    "34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
    "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
const char* const v1_self =
    "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/7a75\n3:cpuset:/\n2:cpuacct:/\n1:cpu:/\n"
    "0::/\n";

const char* const v2_mountinfo =
    "25 1 0:23 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 "
    "rw,nsdelegate,memory_recursiveprot\n";

using Files = std::map<std::string, std::string>;

std::variant<Layout, std::string> layout(const char* mountinfo, const char* self,
                                         std::vector<Controller> needed, Files files = {}) {
    return find_layout(parse_mountinfo(mountinfo), parse_proc_cgroup(self), needed,
                       [&](const std::string& path) -> std::optional<std::string> {
                           const auto it = files.find(path);
                           if (it == files.end())
                               return std::nullopt;
                           return it->second;
                       });
}

const std::vector<Controller> game = {Controller::cpu, Controller::cpuacct, Controller::memory,
                                      Controller::pids};

}  // namespace

TEST_CASE("cgroups: v1, a hierarchy a controller, this process's cgroup in each", "[cgroups]") {
    const auto found = layout(v1_mountinfo, v1_self, game);
    REQUIRE(std::holds_alternative<Layout>(found));
    const Layout& l = std::get<Layout>(found);
    CHECK(l.hierarchies.size() == 4);
    CHECK(l.uses_v1());
    CHECK(l.of(Controller::cpu).mount == "/sys/fs/cgroup/cpu");
    CHECK(l.of(Controller::cpu).own == "/sys/fs/cgroup/cpu");
    CHECK(l.of(Controller::cpuacct).own == "/sys/fs/cgroup/cpuacct");
    CHECK(l.of(Controller::memory).own == "/sys/fs/cgroup/memory/process_api/7a75");
    CHECK(l.of(Controller::pids).version == 1);
    CHECK(l.index_of(Controller::cpu) == 0);  // the first, whose base holds the machine's lock
}

TEST_CASE("cgroups: controllers mounted together are one hierarchy", "[cgroups]") {
    const char* mountinfo =
        "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
        "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
        "39 31 0:36 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n";
    const char* self = "4:pids:/user.slice\n3:memory:/user.slice\n2:cpu,cpuacct:/user.slice\n";
    const auto found = layout(mountinfo, self, game);
    REQUIRE(std::holds_alternative<Layout>(found));
    const Layout& l = std::get<Layout>(found);
    CHECK(l.hierarchies.size() == 3);
    CHECK(l.of(Controller::cpu).mount == l.of(Controller::cpuacct).mount);
    CHECK(l.of(Controller::cpuacct).own == "/sys/fs/cgroup/cpu,cpuacct/user.slice");
}

TEST_CASE("cgroups: pure v2, as root and in a delegated scope", "[cgroups]") {
    const auto root =
        layout(v2_mountinfo, "0::/\n", game,
               {{"/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n"}});
    REQUIRE(std::holds_alternative<Layout>(root));
    CHECK(std::get<Layout>(root).hierarchies.size() == 1);
    CHECK_FALSE(std::get<Layout>(root).uses_v1());
    CHECK(std::get<Layout>(root).of(Controller::memory).own == "/sys/fs/cgroup");

    const std::string scope =
        "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/run-1.scope";
    const auto delegated = layout(
        v2_mountinfo, "0::/user.slice/user-1000.slice/user@1000.service/app.slice/run-1.scope\n",
        game, {{scope + "/cgroup.controllers", "cpu memory pids"}});
    REQUIRE(std::holds_alternative<Layout>(delegated));
    CHECK(std::get<Layout>(delegated).of(Controller::cpu).own == scope);

    // systemd's default for users delegates memory and pids only: cpu is missing, and said.
    const auto lacking =
        layout(v2_mountinfo, "0::/user.slice/x.scope\n", game,
               {{"/sys/fs/cgroup/user.slice/x.scope/cgroup.controllers", "memory pids\n"}});
    REQUIRE(std::holds_alternative<std::string>(lacking));
    const std::string why = std::get<std::string>(lacking);
    CHECK(why.find("cpu") != std::string::npos);
    CHECK(why.find("offers: memory pids") != std::string::npos);
    CHECK(why.find("Delegate=yes") != std::string::npos);
}

TEST_CASE("cgroups: systemd's hybrid takes every controller from its v1 hierarchy", "[cgroups]") {
    // cpuset only in v2 (as a machine where it was never mounted as v1): taken from there.
    const char* mountinfo =
        "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
        "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
        "39 31 0:36 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n"
        "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";
    const char* self = "4:pids:/a\n3:memory:/a\n2:cpu,cpuacct:/a\n0::/a\n";
    auto needed = game;
    needed.push_back(Controller::cpuset);
    const auto found = layout(mountinfo, self, needed,
                              {{"/sys/fs/cgroup/unified/a/cgroup.controllers", "cpuset"}});
    REQUIRE(std::holds_alternative<Layout>(found));
    const Layout& l = std::get<Layout>(found);
    CHECK(l.of(Controller::memory).version == 1);
    CHECK(l.of(Controller::cpuset).version == 2);
    CHECK(l.of(Controller::cpuset).own == "/sys/fs/cgroup/unified/a");
    CHECK(l.uses_v1());
}

TEST_CASE("cgroups: a mount that shows a hierarchy from inside maps this process's cgroup",
          "[cgroups]") {
    // A container: its cgroup /docker/abc is what its mount shows at its mount point.
    const char* mountinfo =
        "1 0 0:1 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
        "2 0 0:2 /docker/abc /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n"
        "3 0 0:3 /docker/abc /sys/fs/cgroup/cpu\\040acct rw - cgroup cgroup rw,cpu,cpuacct\n";
    const char* self =
        "3:memory:/docker/abc/inner\n2:pids:/docker/abc\n1:cpu,cpuacct:/docker/abc\n";
    const auto found = layout(mountinfo, self, game);
    REQUIRE(std::holds_alternative<Layout>(found));
    const Layout& l = std::get<Layout>(found);
    CHECK(l.of(Controller::memory).own == "/sys/fs/cgroup/memory/inner");
    CHECK(l.of(Controller::pids).own == "/sys/fs/cgroup/pids");
    CHECK(l.of(Controller::cpu).mount == "/sys/fs/cgroup/cpu acct");  // \040 is a space

    // A cgroup outside what the mount shows cannot be reached: missing, and said.
    const auto outside =
        layout(mountinfo, "3:memory:/other\n2:pids:/docker/abc\n1:cpu,cpuacct:/docker/abc\n", game);
    REQUIRE(std::holds_alternative<std::string>(outside));
    CHECK(std::get<std::string>(outside).find("memory") != std::string::npos);
}

TEST_CASE("cgroups: no cgroups at all is said", "[cgroups]") {
    const auto none = layout("1 0 0:1 / / rw - ext4 /dev/vda rw\n", "", game);
    REQUIRE(std::holds_alternative<std::string>(none));
    CHECK(std::get<std::string>(none).find("not mounted") != std::string::npos);
}

TEST_CASE("cgroups: CPU lists read, written and handed out", "[cgroups]") {
    CHECK(parse_cpu_list("0-3,8,10-11\n") == std::vector<int>{0, 1, 2, 3, 8, 10, 11});
    CHECK(parse_cpu_list("") == std::vector<int>{});
    CHECK(parse_cpu_list("5") == std::vector<int>{5});
    for (const char* bad : {"3-1", "a", "1,,2", "-1", "1-", "99999"})
        CHECK_FALSE(parse_cpu_list(bad));
    CHECK(format_cpu_list({0, 1, 2, 3, 8, 10, 11}) == "0-3,8,10-11");
    CHECK(format_cpu_list({}) == "");
    CHECK(format_cpu_list({4}) == "4");

    CHECK(choose_cpus({0, 1, 2, 3}, {0, 2}, 2) == std::vector<int>{1, 3});
    CHECK(choose_cpus({0, 1, 2, 3}, {}, 1) == std::vector<int>{0});
    CHECK_FALSE(choose_cpus({0, 1, 2, 3}, {0, 2}, 3));
    CHECK_FALSE(choose_cpus({0, 1}, {}, 0));
}

TEST_CASE("cgroups: a CPU wait read from schedstat and cpu.pressure", "[cgroups][cpu_wait]") {
    using bg::cgroups::TaskTimes;
    CHECK(bg::cgroups::parse_schedstat("1168653 2044205 2\n") == TaskTimes{1168653, 2044205});
    CHECK(bg::cgroups::parse_schedstat("1168653 2044205 2") == TaskTimes{1168653, 2044205});
    for (const char* bad : {"", "1 2", "1 2 x", "-1 2 3", "1  2 3", "1 2 3 4", "a b c"}) {
        INFO(bad);
        CHECK_FALSE(bg::cgroups::parse_schedstat(bad));
    }
    CHECK(bg::cgroups::parse_pressure_some(
              "some avg10=0.00 avg60=0.37 avg300=10.43 total=2871009447\n"
              "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n") == 2871009447000ULL);
    CHECK_FALSE(bg::cgroups::parse_pressure_some("full avg10=0.00 total=5\n"));
    CHECK_FALSE(bg::cgroups::parse_pressure_some("some avg10=0.00\n"));
    CHECK_FALSE(bg::cgroups::parse_pressure_some("some total=12x\n"));
    CHECK(bg::cgroups::ids_in("12\n7\n\nx\n0\n99") == std::vector<int>{12, 7, 99});
}

TEST_CASE("cgroups: a CPU wait is the samples' difference, a lower bound said as one",
          "[cgroups][cpu_wait]") {
    using bg::cgroups::wait_between;
    using bg::cgroups::WaitSample;
    // The pressure, where there is one: every process counted, gone or not.
    WaitSample begin{.pressure_ns = 1'000'000}, end{.pressure_ns = 9'000'000};
    CHECK(wait_between(begin, end) == bg::cgroups::CpuWait{8'000'000, ""});

    // Threads: a thread's growth, and all of a new one's.
    begin = WaitSample{.tasks = {{10, {100'000'000, 2'000'000}}, {11, {50'000'000, 1'000'000}}},
                       .schedstat = true,
                       .cpu_ns = 150'000'000};
    end = WaitSample{.tasks = {{10, {300'000'000, 5'000'000}},
                               {11, {60'000'000, 1'500'000}},
                               {12, {40'000'000, 7'000'000}}},
                     .schedstat = true,
                     .cpu_ns = 400'000'000};
    CHECK(wait_between(begin, end) == bg::cgroups::CpuWait{3'000'000 + 500'000 + 7'000'000, ""});

    // A thread gone that ran more than the allowance: a lower bound, and said so.
    end.tasks.erase(11);
    end.cpu_ns = 400'000'000 + bg::cgroups::unseen_cpu_allowance_ns + 1'000'000;
    const auto bound = wait_between(begin, end);
    CHECK(bound.ns == 3'000'000 + 7'000'000);
    CHECK_THAT(bound.note, Catch::Contains("at least"));
    // One that ran within it: whole.
    end.cpu_ns = 240'000'000 + bg::cgroups::unseen_cpu_allowance_ns;
    CHECK(wait_between(begin, end).note.empty());
    // Without the cgroup's CPU time, a thread gone is a lower bound too.
    begin.cpu_ns.reset();
    CHECK_THAT(wait_between(begin, end).note, Catch::Contains("1 of its threads"));

    // A thread id used again (its counters went down): all of the new thread's.
    WaitSample before{.tasks = {{5, {900, 800}}}, .schedstat = true};
    WaitSample after{.tasks = {{5, {100, 40}}}, .schedstat = true};
    CHECK(wait_between(before, after).ns == 40);

    // No schedstat and no pressure: unknown, never zero.
    const auto unknown = wait_between(WaitSample{}, WaitSample{});
    CHECK_FALSE(unknown.ns);
    CHECK_FALSE(unknown.note.empty());
}
