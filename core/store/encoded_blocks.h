#pragma once
// Chunks encoded off the SQLite thread, in blocks of series, and the hand-over of those blocks
// from an encoder thread to the thread that inserts them (SampleWriter's rows' writing).
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

// One chunk encoded off the SQLite thread, or (no blobs) a series that must be merged with
// what is stored or with itself, which needs the store.
struct EncodedChunk {
    std::size_t handle = 0;
    std::int64_t t0 = 0, t1 = 0, n = 0;
    std::size_t timesAt = 0, valsAt = 0, end = 0;  // its blobs in the block's `blobs`
    double peak = 0;                               // peakRate() of its samples
    bool merge = false;
    bool mayHaveStored = false;
    // The samples themselves, for a merge.
    std::vector<std::int64_t> rawTimes;
    std::vector<double> rawValues;
};

// A run of series encoded together. Their blobs share one buffer: one allocation freed by the
// SQLite thread per block, not two per chunk, where the threads queued on glibc's arena lock.
struct EncodedBlock {
    std::vector<EncodedChunk> chunks;
    std::string blobs;
};

// Blocks 0..count-1, inserted in that order by the SQLite thread. The encoder thread claims them
// in order and hands them over; the SQLite thread takes each in turn and encodes it itself when
// the encoder has not claimed it yet, instead of waiting: the encoder shares its core with the
// file's hash, which the commit waits for, so the idle SQLite thread takes a share of its work.
class OrderedBlocks {
public:
    explicit OrderedBlocks(std::size_t count) : count_(count) {}

    // The encoder: the next block to encode, or none when every block is claimed or the SQLite
    // thread stopped. Waits while the blocks handed over and not taken hold kMaxHeldBytes.
    std::optional<std::size_t> claim() {
        std::unique_lock lock(m_);
        space_.wait(lock, [&] { return heldBytes_ < kMaxHeldBytes || stopped_; });
        if (stopped_ || next_ >= count_) return std::nullopt;
        return next_++;
    }
    void put(std::size_t index, EncodedBlock block) {
        {
            std::lock_guard lock(m_);
            heldBytes_ += bytesOf(block);
            ready_.emplace(index, std::move(block));
        }
        readyCv_.notify_one();
    }
    void fail(std::exception_ptr e) {  // the encoder failed: its claimed block never comes
        {
            std::lock_guard lock(m_);
            error_ = e;
        }
        readyCv_.notify_one();
    }
    // The SQLite thread: true when block `index` was not claimed (it is now this thread's).
    bool claimOwn(std::size_t index) {
        std::lock_guard lock(m_);
        if (next_ != index) return false;
        ++next_;
        return true;
    }
    // The SQLite thread: block `index`, claimed by the encoder, once handed over; rethrows the
    // encoder's error when it failed instead.
    EncodedBlock take(std::size_t index) {
        std::unique_lock lock(m_);
        readyCv_.wait(lock, [&] { return ready_.count(index) || error_; });
        const auto it = ready_.find(index);
        if (it == ready_.end()) std::rethrow_exception(error_);
        EncodedBlock block = std::move(it->second);
        ready_.erase(it);
        heldBytes_ -= bytesOf(block);
        space_.notify_one();
        return block;
    }
    void stop() {  // the SQLite thread failed or was cancelled: the encoder gives up
        {
            std::lock_guard lock(m_);
            stopped_ = true;
        }
        space_.notify_all();
    }

private:
    // Bounded by bytes, so a fast encoder does not hold the whole file's blobs twice, yet runs
    // far ahead while the SQLite thread first inserts the new series' rows (the judged CSV's
    // blobs, 17 MB, all fit).
    static constexpr std::size_t kMaxHeldBytes = std::size_t{64} << 20;
    static std::size_t bytesOf(const EncodedBlock& block) {
        std::size_t n = block.blobs.size() + block.chunks.size() * sizeof(EncodedChunk);
        for (const EncodedChunk& c : block.chunks) n += (c.rawTimes.size() + c.rawValues.size()) * 8;
        return n;
    }
    const std::size_t count_;
    std::size_t next_ = 0;  // the first block nobody claimed
    std::size_t heldBytes_ = 0;
    std::map<std::size_t, EncodedBlock> ready_;  // handed over, not yet taken
    std::exception_ptr error_;
    bool stopped_ = false;
    std::mutex m_;
    std::condition_variable readyCv_, space_;
};

} // namespace fabscope
