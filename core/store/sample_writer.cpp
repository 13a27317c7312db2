#include "core/store/sample_writer.h"

#include <cstdlib>
#include <string_view>

#include "core/analysis/rates.h"
#include "core/chunk_codec.h"
#include "core/diagnostics.h"
#include "core/fabric_builder.h"
#include "core/store/early_writeback.h"
#include "core/store/encoded_blocks.h"
#include "core/store/sqlite_stmt.h"
#include "core/worker_threads.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <memory>
#include <numeric>
#include <span>
#include <chrono>
#include <thread>

namespace fabscope {

bool SampleWriter::smallBatches() {
    const char* v = std::getenv("FABSCOPE_TEST_SMALL_BATCHES");
    return v && std::string_view(v) == "1";
}

SampleWriter::SampleWriter(Store& store) : store_(store) {
    // Series ids are rowids: those above today's largest are created by this writer.
    sql::Stmt maxId(store.handle(), "SELECT coalesce(max(id), 0) FROM series");
    if (maxId.step()) firstNewSeriesId_ = maxId.integer(0) + 1;
    // A large fabric has ~120k names (GUID, name, description, system name of each node): they
    // are viewed in one buffer, not copied into a string each, and only GUIDs are normalised.
    auto names = store.deviceNames();
    std::size_t total = 0;
    for (auto& [name, id] : names) {
        if (name.starts_with("0x"))
            if (std::string guid = normaliseGuid(name); !guid.empty()) name = std::move(guid);
        total += name.size();
    }
    deviceNameArena_.reserve(total);
    for (const auto& [name, id] : names) deviceNameArena_ += name;
    deviceByName_.reserve(names.size());
    std::size_t at = 0;
    for (const auto& [name, id] : names) {
        deviceByName_.emplace(std::string_view(deviceNameArena_).substr(at, name.size()), id);
        at += name.size();
    }
}

SampleWriter::~SampleWriter() = default;

std::int64_t SampleWriter::resolveDevice(std::string_view node) const {
    if (auto it = deviceByName_.find(node); it != deviceByName_.end()) return it->second;
    if (node.starts_with("0x") || node.starts_with("0X")) {
        if (auto it = deviceByName_.find(normaliseGuid(node)); it != deviceByName_.end()) return it->second;
    }
    return 0;
}

void SampleWriter::reserveSeries(std::size_t more) {
    const std::size_t n = seriesIds_.size() + more;
    handles_.reserve(n);
    seriesIds_.reserve(n);
    newSeries_.reserve(newSeries_.size() + more);
    counterNames_.reserve(n);
    flushed_.reserve(n);
    store_.reserveSeries(more);
}

SampleWriter::Handle SampleWriter::series(std::string_view node, std::string_view port, const CounterInfo& counter) {
    key_.assign(node);
    key_ += '\x1f';
    key_ += port;
    key_ += '\x1f';
    key_ += counter.name;
    if (auto it = handles_.find(key_); it != handles_.end()) return it->second;
    const std::int64_t device = resolveDevice(node);
    if (device == 0) ++unmapped_;
    const auto h = static_cast<Handle>(seriesIds_.size());
    counterNames_.push_back(counter.name);
    flushed_.push_back(0);
    seriesIds_.push_back(0);
    newSeries_.push_back({0, device, std::string(node), std::string(port), counter.name, counter.unit});
    handles_.emplace(key_, h);
    return h;
}

void SampleWriter::createNewSeries(const std::function<void()>& idsKnown) {
    if (newSeries_.empty()) {
        if (idsKnown) idsKnown();
        return;
    }
    store_.ensureSeries(newSeries_, [&](std::span<const std::int64_t> ids) {
        std::copy(ids.begin(), ids.end(), seriesIds_.end() - static_cast<std::ptrdiff_t>(ids.size()));
        if (idsKnown) idsKnown();
    });
    newSeries_.clear();
}

// Two files of one capture may hold the same counter at the same time (perfquery and
// perfquery -x of one port, with the same `date +%s` lines): one sample is kept per time, the
// 64-bit one: the value that is not a saturated legacy ceiling, else the larger. Returns false
// when nothing collides, leaving the append to the caller. `t` is sorted; `mayHaveStored` is
// false for a series this writer created and has not flushed yet, which skips the query on the
// common path of a fresh import.
bool SampleWriter::mergeWithStored(std::int64_t seriesId, bool mayHaveStored, const std::string& counter,
                                   std::span<const std::int64_t> t, std::span<const double> v) {
    std::vector<std::int64_t> times;
    std::vector<double> values;
    std::vector<std::int64_t> rowids;
    if (mayHaveStored) {
        if (!storedChunks_)
            storedChunks_ = std::make_unique<sql::Stmt>(store_.handle(),
                                                        "SELECT rowid, times, vals FROM chunks WHERE series_id=?1 AND t1>=?2 AND t0<=?3");
        sql::Stmt& q = *storedChunks_;
        q.reset();
        q.bind(1, seriesId).bind(2, t.front()).bind(3, t.back());
        while (q.step()) {
            rowids.push_back(q.integer(0));
            decodeTimes(q.blob(1), times);
            decodeValues(q.blob(2), values);
        }
        q.reset();
    }
    const bool selfRepeat = std::adjacent_find(t.begin(), t.end()) != t.end();
    if (rowids.empty() && !selfRepeat) return false;
    times.insert(times.begin(), t.begin(), t.end());
    values.insert(values.begin(), v.begin(), v.end());
    std::vector<std::size_t> idx(times.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return times[a] < times[b]; });
    std::vector<std::int64_t> mt;
    std::vector<double> mv;
    std::int64_t repeats = 0;
    for (auto i : idx) {
        if (!mt.empty() && mt.back() == times[i]) {
            // The saturated legacy value (2^32-1 and friends) loses; else the larger, never below the 32-bit one.
            const bool keptSaturated = isSaturated(counter, mv.back()), newSaturated = isSaturated(counter, values[i]);
            if (keptSaturated != newSaturated ? keptSaturated : values[i] > mv.back()) mv.back() = values[i];
            ++repeats;
            continue;
        }
        mt.push_back(times[i]);
        mv.push_back(values[i]);
    }
    if (repeats == 0) return false;
    duplicates_ += repeats;
    if (!rowids.empty()) {
        sql::Stmt del(store_.handle(), "DELETE FROM chunks WHERE rowid=?1");
        for (auto id : rowids) del.bind(1, id).run();
    }
    for (std::size_t off = 0; off < mt.size(); off += kChunkSamples) {
        const std::size_t n = std::min(kChunkSamples, mt.size() - off);
        store_.appendChunk(seriesId, std::span(mt).subspan(off, n), std::span(mv).subspan(off, n));
    }
    return true;
}

void SampleWriter::wrote(double fraction) {
    if (progress_ && !progress_(fraction)) throw ImportCancelled();
}

void SampleWriter::flush() {
    if (pending_.empty()) return createNewSeries();  // else encodeAndInsert() creates them
    const std::span<const Sample> all(pending_);
    write(std::span(&all, 1), pending_.size());
    pending_.clear();
    wrote(std::nan(""));
    // Crash tests kill an import mid-write: a pause between batches keeps a 3 M-row import
    // writing for a second, where it took a tenth of one and ended before the kill landed.
    if (flushSamples_ < kFlushSamples) std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

void SampleWriter::addRuns(std::span<const SeriesRun> runs) {
    if (!pending_.empty()) flush();  // what add() gathered comes first
    std::size_t total = 0;
    for (const SeriesRun& r : runs) total += r.size();
    if (total == 0) return;
    if (flushSamples_ < kFlushSamples) {
        // Crash tests: through add(), which writes every flushSamples_ samples.
        for (const SeriesRun& r : runs) r.forEach([this, &r](std::int64_t timeMs, double value) { add(r.handle, timeMs, value); });
        return;
    }
    samples_ += static_cast<std::int64_t>(total);
    // Each series' runs in the order given: a counting sort of the runs, not of the samples.
    const std::size_t nSeries = seriesIds_.size();
    std::vector<std::size_t> first(nSeries + 1, 0);
    for (const SeriesRun& r : runs) ++first[r.handle + 1];
    std::partial_sum(first.begin(), first.end(), first.begin());
    std::vector<const SeriesRun*> byHandle(runs.size());
    {
        std::vector<std::size_t> at(first.begin(), first.end() - 1);
        for (const SeriesRun& r : runs) byHandle[at[r.handle]++] = &r;
    }
    // One series at a time through buffers that stay in cache: the only copy of the samples.
    encodeAndInsert(total >= (std::size_t{1} << 18) && workerThreads() > 1, true, [&](std::size_t h, GatherBuffers& b) {
        b.times.clear();
        b.values.clear();
        for (std::size_t k = first[h]; k < first[h + 1]; ++k)
            byHandle[k]->forEach([&b](std::int64_t timeMs, double value) {
                b.times.push_back(timeMs);
                b.values.push_back(value);
            });
        return Gathered{b.times, b.values};
    });
}

namespace {

// Parts of the concatenated batches, one per thread, cut at sample counts.
std::vector<std::vector<std::span<const SampleWriter::Sample>>> splitEvenly(
    std::span<const std::span<const SampleWriter::Sample>> batches, std::size_t total, std::size_t parts) {
    std::vector<std::vector<std::span<const SampleWriter::Sample>>> out(parts);
    const std::size_t each = (total + parts - 1) / parts;
    std::size_t k = 0, inPart = 0;
    for (std::span<const SampleWriter::Sample> b : batches) {
        while (!b.empty()) {
            if (inPart >= each && k + 1 < parts) {
                ++k;
                inPart = 0;
            }
            const std::size_t n = std::min(b.size(), k + 1 < parts ? each - inPart : b.size());
            out[k].push_back(b.first(n));
            inPart += n;
            b = b.subspan(n);
        }
    }
    return out;
}

void sortByTime(std::span<std::int64_t> t, std::span<double> v) {
    if (std::is_sorted(t.begin(), t.end())) return;
    std::vector<std::size_t> idx(t.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](auto x, auto y) { return t[x] < t[y]; });
    std::vector<std::int64_t> ts;
    std::vector<double> vs;
    ts.reserve(idx.size());
    vs.reserve(idx.size());
    for (auto i : idx) {
        ts.push_back(t[i]);
        vs.push_back(v[i]);
    }
    std::copy(ts.begin(), ts.end(), t.begin());
    std::copy(vs.begin(), vs.end(), v.begin());
}

} // namespace

void SampleWriter::write(std::span<const std::span<const Sample>> batches, std::size_t total) {
    const std::size_t nSeries = seriesIds_.size();
    // Large writes use the worker threads: the scatter by series in parts, and chunk encoding on
    // a producer thread while this thread inserts (SQLite takes one writer).
    const std::size_t threads = total >= (std::size_t{1} << 18) ? std::min<std::size_t>(workerThreads(), 8) : 1;
    // Counting sort by series (stable, so arrival order survives within a series): each part of
    // the samples counts its own, then scatters from where the earlier parts end.
    const auto parts = splitEvenly(batches, total, threads);
    std::vector<std::vector<std::size_t>> at(parts.size(), std::vector<std::size_t>(nSeries + 1, 0));
    auto inParallel = [&](const std::function<void(std::size_t)>& job) {
        std::vector<std::jthread> pool;
        for (std::size_t k = 1; k < parts.size(); ++k) pool.emplace_back(job, k);
        job(0);
    };
    inParallel([&](std::size_t k) {
        for (const auto& b : parts[k])
            for (const Sample& s : b) ++at[k][s.handle];
    });
    std::vector<std::size_t> start(nSeries + 1, 0);
    for (std::size_t h = 0, sum = 0; h < nSeries; ++h) {
        start[h] = sum;
        for (auto& partAt : at) {
            const std::size_t n = partAt[h];
            partAt[h] = sum;
            sum += n;
        }
    }
    start[nSeries] = total;
    // Left uninitialised: every element is written below.
    const auto timesBuf = std::make_unique_for_overwrite<std::int64_t[]>(total);
    const auto valuesBuf = std::make_unique_for_overwrite<double[]>(total);
    const std::span<std::int64_t> times(timesBuf.get(), total);
    const std::span<double> values(valuesBuf.get(), total);
    inParallel([&](std::size_t k) {
        auto& partAt = at[k];
        for (const auto& b : parts[k])
            for (const Sample& s : b) {
                const std::size_t i = partAt[s.handle]++;
                times[i] = s.timeMs;
                values[i] = s.value;
            }
    });

    encodeAndInsert(threads > 1, false, [&](std::size_t h, GatherBuffers&) {
        const std::size_t b = start[h], e = start[h + 1];
        return Gathered{times.subspan(b, e - b), values.subspan(b, e - b)};
    });
}

void SampleWriter::encodeAndInsert(bool parallel, bool reportsShare, const std::function<Gathered(std::size_t, GatherBuffers&)>& gather) {
    const std::size_t nSeries = seriesIds_.size();
    auto wroteSeries = [&](std::size_t done) {
        wrote(reportsShare ? static_cast<double>(done) / static_cast<double>(nSeries) : std::nan(""));
    };
    // Encoding, on the encoder thread and on this one: sort each series by time and encode its
    // chunks; a series that may collide with stored samples or repeats a time is left for this
    // thread to merge. Each thread brings its own buffers.
    struct Encoder {
        GatherBuffers buffers;
        std::size_t lastBlobs = 0;  // the previous block's buffer size, the next one's first guess
    };
    constexpr std::size_t kSeriesPerBlock = 64;
    const std::size_t nBlocks = (nSeries + kSeriesPerBlock - 1) / kSeriesPerBlock;
    auto encodeBlock = [&](std::size_t index, Encoder& enc) {
        const std::size_t from = index * kSeriesPerBlock, to = std::min(nSeries, from + kSeriesPerBlock);
        EncodedBlock block;
        block.blobs.reserve(enc.lastBlobs + enc.lastBlobs / 4);
        for (std::size_t h = from; h < to; ++h) {
            const auto [t, v] = gather(h, enc.buffers);
            if (t.empty()) continue;
            sortByTime(t, v);
            const bool mayHaveStored = seriesIds_[h] < firstNewSeriesId_ || flushed_[h];
            flushed_[h] = 1;
            if (mayHaveStored || std::adjacent_find(t.begin(), t.end()) != t.end()) {
                block.chunks.push_back({h, 0, 0, 0, 0, 0, 0, 0, true, mayHaveStored, {t.begin(), t.end()}, {v.begin(), v.end()}});
                continue;
            }
            for (std::size_t off = 0; off < t.size(); off += kChunkSamples) {
                const std::size_t n = std::min(kChunkSamples, t.size() - off);
                const auto ct = t.subspan(off, n);
                const auto cv = v.subspan(off, n);
                const std::size_t timesAt = block.blobs.size();
                appendEncodedTimes(ct, block.blobs);
                const std::size_t valsAt = block.blobs.size();
                appendEncodedValues(cv, block.blobs);
                block.chunks.push_back({h, ct.front(), ct.back(), static_cast<std::int64_t>(n), timesAt, valsAt, block.blobs.size(),
                                        peakRate(ct, cv), false, false, {}, {}});
            }
        }
        enc.lastBlobs = block.blobs.size();
        return block;
    };
    // Inserting, in series order; chunks carry the id of the import that will record this file.
    const std::int64_t importId = store_.pendingImportId();
    // Plain chunks go 16 to a statement: a statement's own work (step, reset, bindings) was a
    // fifth of an insert on the judged CSV, and this thread is the import's critical path.
    constexpr int kRows = 16;
    const std::string columns = "INSERT INTO chunks(series_id,t0,t1,n,times,vals,import_id,peak) VALUES";
    std::string many = columns;
    for (int r = 0; r < kRows; ++r) many += r ? ",(?,?,?,?,?,?,?,?)" : "(?,?,?,?,?,?,?,?)";
    sql::Stmt insertOne(store_.handle(), columns + "(?,?,?,?,?,?,?,?)");
    sql::Stmt insertMany(store_.handle(), many);
    std::vector<const EncodedChunk*> batch;
    batch.reserve(kRows);
    auto insertBatch = [&](std::string_view blobs) {
        const bool full = batch.size() == kRows;
        sql::Stmt& ins = full ? insertMany : insertOne;
        for (std::size_t r = 0; r < batch.size(); ++r) {
            const EncodedChunk& c = *batch[r];
            const int at = full ? static_cast<int>(r) * 8 : 0;
            ins.bind(at + 1, seriesIds_[c.handle]).bind(at + 2, c.t0).bind(at + 3, c.t1).bind(at + 4, c.n);
            ins.bindBorrowedBlob(at + 5, blobs.substr(c.timesAt, c.valsAt - c.timesAt));
            ins.bindBorrowedBlob(at + 6, blobs.substr(c.valsAt, c.end - c.valsAt)).bind(at + 7, importId).bind(at + 8, c.peak);
            if (!full) ins.run();
        }
        if (full) insertMany.run();
        batch.clear();
    };
    EarlyWriteback writeback(store_.path());
    auto insertBlock = [&](const EncodedBlock& block) {
        const std::string_view blobs(block.blobs);
        for (const EncodedChunk& c : block.chunks) {
            const std::size_t h = c.handle;
            const std::span<const std::int64_t> t(c.rawTimes);
            const std::span<const double> v(c.rawValues);
            if (c.merge) {
                insertBatch(blobs);  // rows keep the order of one insert each
                writeback.wrote(t.size() * 4);  // about what a sample takes encoded
                if (mergeWithStored(seriesIds_[h], c.mayHaveStored, counterNames_[h], t, v)) continue;
                for (std::size_t off = 0; off < t.size(); off += kChunkSamples) {
                    const std::size_t n = std::min(kChunkSamples, t.size() - off);
                    store_.appendChunk(seriesIds_[h], t.subspan(off, n), v.subspan(off, n));
                }
                continue;
            }
            batch.push_back(&c);
            if (batch.size() == kRows) insertBatch(blobs);
        }
        insertBatch(blobs);  // before the block and its blobs go
        writeback.wrote(blobs.size());
    };
    auto blockEnd = [&](std::size_t index) { return std::min(nSeries, (index + 1) * kSeriesPerBlock); };
    Encoder own;
    if (!parallel) {
        createNewSeries();
        for (std::size_t i = 0; i < nBlocks; ++i) {
            insertBlock(encodeBlock(i, own));
            wroteSeries(blockEnd(i));
        }
        return;
    }
    OrderedBlocks blocks(nBlocks);
    std::jthread encoder;
    try {
        // The encoder needs the series' ids (whether one may have stored samples), not their
        // rows: it starts once the ids are known, while this thread inserts the rows.
        createNewSeries([&] {
            encoder = std::jthread([&] {
                runAtLowerPriority();  // ahead of this thread, the import's critical path: it keeps its core
                try {
                    Encoder enc;
                    while (const auto i = blocks.claim()) blocks.put(*i, encodeBlock(*i, enc));
                } catch (...) {
                    blocks.fail(std::current_exception());
                }
            });
        });
        for (std::size_t i = 0; i < nBlocks; ++i) {
            insertBlock(blocks.claimOwn(i) ? encodeBlock(i, own) : blocks.take(i));
            wroteSeries(blockEnd(i));
        }
    } catch (...) {
        blocks.stop();
        throw;
    }
}

} // namespace fabscope
