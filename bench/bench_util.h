#pragma once
// What every benchmark shares: a clock, child processes timed from outside, medians, the page
// cache dropped for cold runs, and the line that prints a ratio with both sides' figures.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

extern char** environ;

namespace bench {

inline double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Runs a program (no shell), stdout to `stdoutFile`, stderr dropped; returns its wall time in seconds, or -1 when
// it could not start or failed.
inline double runTimed(const std::vector<std::string>& argv, const std::string& stdoutFile = "/dev/null") {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdoutFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const double t0 = now();
    const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    int status = 0;
    waitpid(pid, &status, 0);
    const double t = now() - t0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

// The first line a finished child wrote (its result, compared with the other side's).
inline std::string firstLine(const std::string& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

// Median of `n` runs of `once` (which returns seconds, or < 0 on failure: then -1).
inline double medianOf(int n, const std::function<double()>& once) {
    std::vector<double> t;
    for (int i = 0; i < n; ++i) {
        const double s = once();
        if (s < 0) return -1;
        t.push_back(s);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// Drops the page cache so the next read comes from the disk; false when not root (no cold figure).
inline bool dropPageCache() {
    ::sync();
    std::ofstream f("/proc/sys/vm/drop_caches");
    if (!f) return false;
    f << "3\n";
    return static_cast<bool>(f.flush());
}

// "what  value unit  ratio x baseline (value unit)  target: MET" — both sides printed, always.
inline void ratioLine(const char* what, double value, const char* unit, const char* baselineName, double baseline,
                      double target, bool higherIsBetter = true) {
    if (baseline <= 0 || value <= 0) {
        std::printf("%-40s %10.3f %-4s  (baseline %s not measured)\n", what, value, unit, baselineName);
        return;
    }
    const double ratio = higherIsBetter ? value / baseline : baseline / value;
    std::printf("%-40s %10.3f %-4s %6.1fx %s (%.3f %s)   target >= %.0fx: %s\n", what, value, unit, ratio, baselineName,
                baseline, unit, target, ratio >= target ? "MET" : "NOT MET");
}

inline void agreeLine(const char* what, long long ours, long long theirs, const char* theirName) {
    std::printf("%-40s FabScope %lld, %s %lld: %s\n", what, ours, theirName, theirs, ours == theirs ? "agree" : "DISAGREE");
}

} // namespace bench
