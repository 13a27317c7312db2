#pragma once
// Buffers counter samples per series and writes them to the store in chunks (docs/ARCHITECTURE.md). Node
// names from the input are mapped to fabric devices of the latest snapshot (description, system
// name or GUID); names that map to nothing become "unmapped" series, reported by `info`.
#include "core/counters.h"
#include "core/store/store.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fabscope {

class SampleWriter {
public:
    using Handle = std::uint32_t;
    static constexpr std::size_t kChunkSamples = 4096;
    // Samples are collected in arrival order and grouped by series every kFlushSamples: appending
    // 24 bytes to one array keeps the per-row cost flat however many series a file holds.
    static constexpr std::size_t kFlushSamples = std::size_t{1} << 24;
    // FABSCOPE_TEST_SMALL_BATCHES=1 (crash-safety tests): flush every 64 Ki samples instead, so
    // a killed import has written chunks, and the store's page cache spills them into the file;
    // each flush then pauses 20 ms, so the import is still writing when the test kills it.
    static bool smallBatches();

    struct Sample {
        std::int64_t timeMs;
        double value;
        Handle handle;
    };
    struct TimedValue {
        std::int64_t timeMs;
        double value;
    };
    // A sample in 8 bytes: the index of its time in a table of times (16 bits) and an integer
    // value below 2^48. A counter dump's rows nearly all fit; a parse that keeps its samples so
    // touches half the fresh pages it would at 16 bytes a sample (docs/PERFORMANCE.md).
    struct PackedSample {
        static constexpr int kValueBits = 48;
        static constexpr std::uint64_t kMaxValue = (std::uint64_t{1} << kValueBits) - 1;
        static constexpr std::size_t kMaxTimes = std::size_t{1} << (64 - kValueBits);
        static std::uint64_t pack(std::uint32_t timeIndex, std::uint64_t value) {
            return (std::uint64_t{timeIndex} << kValueBits) | value;
        }
        static std::size_t timeIndex(std::uint64_t packed) { return static_cast<std::size_t>(packed >> kValueBits); }
        static double value(std::uint64_t packed) { return static_cast<double>(packed & kMaxValue); }
    };
    // Samples of one series in arrival order, parsed elsewhere; a series may have several runs.
    // Either `samples`, or `packed` with the `times` its indices point into. Every value is
    // multiplied by `scale` (a counter alias counted in other units).
    struct SeriesRun {
        Handle handle;
        std::span<const TimedValue> samples;
        std::span<const std::uint64_t> packed = {};
        const std::int64_t* times = nullptr;
        double scale = 1.0;
        [[nodiscard]] std::size_t size() const { return samples.size() + packed.size(); }
        template <class F> void forEach(F&& f) const {
            for (const TimedValue& s : samples) f(s.timeMs, s.value * scale);
            for (const std::uint64_t w : packed) f(times[PackedSample::timeIndex(w)], PackedSample::value(w) * scale);
        }
    };

    explicit SampleWriter(Store& store);
    ~SampleWriter();
    SampleWriter(const SampleWriter&) = delete;
    SampleWriter& operator=(const SampleWriter&) = delete;

    // The series for (node, port, counter); a new one is written to the store with the next
    // flush() or addRuns(), all new ones together, before their samples.
    Handle series(std::string_view node, std::string_view port, const CounterInfo& counter);
    // Room for `more` series beyond those made so far (an importer that knows its count), so
    // creating them rehashes nothing.
    void reserveSeries(std::size_t more);
    void add(Handle h, std::int64_t timeMs, double value) {
        pending_.push_back({timeMs, value, h});
        ++samples_;
        if (pending_.size() >= flushSamples_) flush();
    }
    void flush();  // writes every pending sample; call before committing
    // Writes samples already grouped by series (a file parsed on several threads) with the same
    // result as add()ing each: a series' runs are taken in the order given, no sort by series,
    // no copy into the pending list.
    void addRuns(std::span<const SeriesRun> runs);
    // Room for about `samples` before the next flush, so a large file's samples are not copied
    // at every doubling of the buffer (untouched reserved pages cost no memory).
    void reserve(std::size_t samples) { pending_.reserve(std::min(samples, flushSamples_)); }

    // Told how far the rows' writing got (0..1 of the series handed to addRuns(); NaN, no news,
    // after a flush() of what add() gathered) after every block of series it inserts; returning
    // false cancels: ImportCancelled is thrown between two blocks, so a Cancel clicked while a
    // large file's rows are written stops it within a block, not at its end.
    void setProgress(std::function<bool(double)> progress) { progress_ = std::move(progress); }

    [[nodiscard]] std::int64_t samples() const { return samples_; }
    [[nodiscard]] std::size_t unmappedSeries() const { return unmapped_; }
    // Samples dropped because their series already held (or was given twice) a value at that time.
    [[nodiscard]] std::int64_t duplicateSamples() const { return duplicates_; }
    [[nodiscard]] std::int64_t resolveDevice(std::string_view node) const;

private:
    std::size_t flushSamples_ = smallBatches() ? std::size_t{1} << 16 : kFlushSamples;
    void write(std::span<const std::span<const Sample>> batches, std::size_t total);
    // The sorted samples of one series, in buffers the writer may sort in place.
    struct Gathered {
        std::span<std::int64_t> times;
        std::span<double> values;
    };
    // Per encoding thread: where gather may copy a series' samples to.
    struct GatherBuffers {
        std::vector<std::int64_t> times;
        std::vector<double> values;
    };
    // Sorts and encodes each series `gather` hands out and inserts its chunks, on two threads
    // when `parallel`; gather is called once per handle, on the thread encoding its block (two
    // at once), with that thread's buffers. After
    // each block of series it reports the share of series written when `reportsShare` (addRuns()),
    // else (a flush() of what add() gathered, mid-parse or an importer's one write) only asks
    // whether to go on.
    void encodeAndInsert(bool parallel, bool reportsShare, const std::function<Gathered(std::size_t, GatherBuffers&)>& gather);

    Store& store_;
    std::string deviceNameArena_;  // every name the map below views, in one buffer
    std::unordered_map<std::string_view, std::int64_t> deviceByName_;
    // Its keys and nodes in blocks freed together, not an allocation per series made and freed.
    std::pmr::monotonic_buffer_resource handleMemory_;
    std::pmr::unordered_map<std::pmr::string, Handle> handles_{&handleMemory_};
    std::vector<std::int64_t> seriesIds_;  // by handle; 0 while the series waits in newSeries_
    // Series named but not yet created in the store: created together, before samples are written.
    std::vector<SeriesInfo> newSeries_;
    // Writes newSeries_; `idsKnown` runs once their ids are in seriesIds_, before their rows
    // are written (encodeAndInsert starts its encoder then).
    void createNewSeries(const std::function<void()>& idsKnown = {});
    std::function<bool(double)> progress_;
    void wrote(double fraction);  // reports it (NaN: no news); throws ImportCancelled when told to stop
    std::vector<Sample> pending_;
    std::pmr::string key_;
    std::int64_t samples_ = 0;
    std::size_t unmapped_ = 0;
    std::int64_t duplicates_ = 0;
    std::unique_ptr<sql::Stmt> storedChunks_;  // prepared once: asked for every series written
    std::vector<std::string> counterNames_;  // by handle
    // By handle: some of its samples are written already (bytes: two encoding threads set them).
    std::vector<std::uint8_t> flushed_;
    std::int64_t firstNewSeriesId_ = 1;      // series from this id on did not exist before this writer
    bool mergeWithStored(std::int64_t seriesId, bool mayHaveStored, const std::string& counter,
                         std::span<const std::int64_t> t, std::span<const double> v);
};

} // namespace fabscope
