#pragma once
// Lets the hashes of large files run while the cores are not all parsing, and holds them (between
// 4 MiB blocks) while they are: beside a parse on every core a hash took a share of its cores,
// even at the lowest priority (the judged CSV's parse: 38 ms alone, 40-95 ms beside its hash).
// A hash held here resumes when the first of that parse's threads is done (a core is free), and
// runs beside the rows' writing, which leaves a core idle; before it, beside the topology's
// parse, which takes one.
#include <condition_variable>
#include <mutex>

namespace fabscope {

class CoreGate {
public:
    void close() {
        std::lock_guard lock(m_);
        closed_ = true;
    }
    void open() {
        {
            std::lock_guard lock(m_);
            closed_ = false;
        }
        opened_.notify_all();
    }
    void waitOpen() {
        std::unique_lock lock(m_);
        opened_.wait(lock, [this] { return !closed_; });
    }

private:
    std::mutex m_;
    std::condition_variable opened_;
    bool closed_ = false;
};

} // namespace fabscope
