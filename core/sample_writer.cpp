#include "core/sample_writer.h"

#include "core/fabric_builder.h"

#include <algorithm>
#include <numeric>
#include <span>

namespace fabscope {

SampleWriter::SampleWriter(Store& store) : store_(store) {
    for (auto& [name, id] : store.deviceNames()) {
        const std::string guid = normaliseGuid(name);
        deviceByName_.emplace(name.starts_with("0x") && !guid.empty() ? guid : name, id);
    }
}

std::int64_t SampleWriter::resolveDevice(std::string_view node) const {
    if (auto it = deviceByName_.find(std::string(node)); it != deviceByName_.end()) return it->second;
    if (node.starts_with("0x") || node.starts_with("0X")) {
        if (auto it = deviceByName_.find(normaliseGuid(node)); it != deviceByName_.end()) return it->second;
    }
    return 0;
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
    seriesIds_.push_back(store_.ensureSeries(device, std::string(node), std::string(port), counter.name, counter.unit));
    handles_.emplace(key_, h);
    return h;
}

void SampleWriter::flush() {
    if (pending_.empty()) return;
    // Counting sort by series (stable, so arrival order survives within a series).
    std::vector<std::size_t> start(seriesIds_.size() + 1, 0);
    for (const Sample& s : pending_) ++start[s.handle + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<std::int64_t> times(pending_.size());
    std::vector<double> values(pending_.size());
    {
        std::vector<std::size_t> at(start.begin(), start.end() - 1);
        for (const Sample& s : pending_) {
            const std::size_t i = at[s.handle]++;
            times[i] = s.timeMs;
            values[i] = s.value;
        }
    }
    pending_.clear();
    for (std::size_t h = 0; h < seriesIds_.size(); ++h) {
        const std::size_t b = start[h], e = start[h + 1];
        if (b == e) continue;
        auto t = std::span(times).subspan(b, e - b);
        auto v = std::span(values).subspan(b, e - b);
        if (!std::is_sorted(t.begin(), t.end())) {
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
        for (std::size_t off = 0; off < t.size(); off += kChunkSamples) {
            const std::size_t n = std::min(kChunkSamples, t.size() - off);
            store_.appendChunk(seriesIds_[h], t.subspan(off, n), v.subspan(off, n));
        }
    }
}

} // namespace fabscope
