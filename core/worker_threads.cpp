#include "core/worker_threads.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

namespace fabscope {

std::size_t workerThreads() {
    if (const char* env = std::getenv("FABSCOPE_THREADS")) {
        std::size_t n = 0;
        const auto [end, ec] = std::from_chars(env, env + std::strlen(env), n);
        if (ec == std::errc() && *end == '\0' && n >= 1 && n <= 64) return n;
    }
    const unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : hw;
}

void runAtLowestPriority() {
    // On Linux a thread id names one thread to setpriority (POSIX would have the whole process).
    (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
}

void runAtLowerPriority() { (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 10); }

} // namespace fabscope
