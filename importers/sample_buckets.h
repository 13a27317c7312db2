#pragma once
// One parse part's samples by series, in as few bytes as hold them exactly: 8 a sample
// (SampleWriter::PackedSample, an index into the part's table of times and an integer value)
// until one does not fit (a fraction, a value from 2^48 on, more distinct times than the index
// holds), then 16 (time and value) for the whole part, the packed ones converted once. Half the
// bytes are half the fresh pages the judged CSV's parse touched (docs/PERFORMANCE.md).
#include "core/block_arena.h"
#include "core/store/sample_writer.h"

#include <cmath>
#include <cstdint>
#include <memory_resource>
#include <unordered_map>
#include <vector>

namespace fabscope {

class SampleBuckets {
public:
    using TimedValue = SampleWriter::TimedValue;
    using Packed = SampleWriter::PackedSample;

    explicit SampleBuckets(BlockArena* arena) : arena_(arena) {}

    // A new series' bucket; its number is the count of series before it.
    void addSeries() {
        packed_.emplace_back(arena_);
        if (wide_) wideBuckets_.emplace_back(arena_);
    }
    // `more()`: about how many samples the series will still get, asked at its second sample so
    // its bucket is sized once instead of copied at every doubling.
    template <class More>
    [[gnu::always_inline]] void add(std::uint32_t id, std::int64_t timeMs, double value, More&& more) {
        // An integer that reads back as itself (not -0.0, not NaN) goes the integer's way.
        if (!std::signbit(value) && value <= static_cast<double>(Packed::kMaxValue) && value == std::floor(value))
            return addInteger(id, timeMs, static_cast<std::uint64_t>(value), more);
        if (!wide_) widen();
        push(wideBuckets_[id], TimedValue{timeMs, value}, more);
    }
    // The same for a value read as an integer (below 2^53).
    template <class More>
    [[gnu::always_inline]] void addInteger(std::uint32_t id, std::int64_t timeMs, std::uint64_t value, More&& more) {
        if (!wide_) {
            std::uint32_t ti = 0;
            if (value <= Packed::kMaxValue && timeIndex(timeMs, ti)) {
                push(packed_[id], Packed::pack(ti, value), more);
                return;
            }
            widen();
        }
        push(wideBuckets_[id], TimedValue{timeMs, static_cast<double>(value)}, more);
    }
    // Where the series' next sample goes, to fetch ahead of the row.
    const void* end(std::uint32_t id) const {
        return wide_ ? static_cast<const void*>(wideBuckets_[id].data() + wideBuckets_[id].size())
                     : static_cast<const void*>(packed_[id].data() + packed_[id].size());
    }
    [[nodiscard]] std::size_t samples(std::uint32_t id) const { return wide_ ? wideBuckets_[id].size() : packed_[id].size(); }
    [[nodiscard]] bool packed() const { return !wide_; }
    // The series' samples as the writer takes them (viewing this part's buffers).
    [[nodiscard]] SampleWriter::SeriesRun run(SampleWriter::Handle handle, std::uint32_t id, double scale) const {
        if (wide_) return {handle, wideBuckets_[id], {}, nullptr, scale};
        return {handle, {}, packed_[id], times_.data(), scale};
    }

private:
    template <class T, class More>
    [[gnu::always_inline]] static void push(std::pmr::vector<T>& bucket, const T& sample, More& more) {
        if (bucket.size() == 1) bucket.reserve(2 + more());
        bucket.push_back(sample);
    }
    // The index of `t` in the part's times, added when new; false when the index is full. A dump
    // repeats one time across a run of rows, or steps through the same times series by series,
    // so the table is searched only for a time out of both orders.
    [[gnu::always_inline]] bool timeIndex(std::int64_t t, std::uint32_t& index) {
        if (t == lastTime_) {
            index = last_;
            return true;
        }
        return newTimeIndex(t, index);
    }
    [[gnu::noinline]] bool newTimeIndex(std::int64_t t, std::uint32_t& index) {
        std::uint32_t i = 0;
        if (last_ + 1 < times_.size() && times_[last_ + 1] == t) {
            i = last_ + 1;
        } else if (times_.empty() || t > latest_) {
            if (!append(t, i)) return false;
            latest_ = t;
        } else {
            for (; indexed_ < times_.size(); ++indexed_) byTime_.emplace(times_[indexed_], static_cast<std::uint32_t>(indexed_));
            if (auto it = byTime_.find(t); it != byTime_.end()) i = it->second;
            else if (!append(t, i)) return false;
        }
        last_ = i;
        lastTime_ = t;
        index = i;
        return true;
    }
    bool append(std::int64_t t, std::uint32_t& i) {
        if (times_.size() == Packed::kMaxTimes) return false;
        i = static_cast<std::uint32_t>(times_.size());
        times_.push_back(t);
        return true;
    }
    void widen() {
        wide_ = true;
        wideBuckets_.reserve(packed_.size());
        for (auto& bucket : packed_) {
            auto& wide = wideBuckets_.emplace_back(arena_);
            wide.reserve(bucket.capacity());
            for (const std::uint64_t w : bucket) wide.push_back({times_[Packed::timeIndex(w)], Packed::value(w)});
            bucket = std::pmr::vector<std::uint64_t>(arena_);  // its bytes stay in the arena, unread
        }
    }

    BlockArena* arena_;
    bool wide_ = false;
    std::vector<std::pmr::vector<std::uint64_t>> packed_;  // by series, until wide_
    std::vector<std::pmr::vector<TimedValue>> wideBuckets_;  // by series, once wide_
    std::vector<std::int64_t> times_;                        // what packed samples' indices point to
    std::uint32_t last_ = 0;                                 // the index of the time last looked up
    std::int64_t lastTime_ = INT64_MIN;                      // and that time (none yet: no time is negative)
    std::int64_t latest_ = 0;                                // the latest time in times_
    std::unordered_map<std::int64_t, std::uint32_t> byTime_;  // times_[0, indexed_) by time, built on first need
    std::size_t indexed_ = 0;
};

} // namespace fabscope
