#include "core/sample_writer.h"

#include "core/fabric_builder.h"

#include <algorithm>
#include <numeric>

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
    Buffer b;
    b.seriesId = store_.ensureSeries(device, std::string(node), std::string(port), counter.name, counter.unit);
    const auto h = static_cast<Handle>(buffers_.size());
    buffers_.push_back(std::move(b));
    handles_.emplace(key_, h);
    return h;
}

void SampleWriter::flush(Buffer& b) {
    if (b.times.empty()) return;
    if (!std::is_sorted(b.times.begin(), b.times.end())) {
        std::vector<std::size_t> idx(b.times.size());
        std::iota(idx.begin(), idx.end(), 0);
        std::stable_sort(idx.begin(), idx.end(), [&](auto x, auto y) { return b.times[x] < b.times[y]; });
        std::vector<std::int64_t> t;
        std::vector<double> v;
        t.reserve(idx.size());
        v.reserve(idx.size());
        for (auto i : idx) {
            t.push_back(b.times[i]);
            v.push_back(b.values[i]);
        }
        b.times.swap(t);
        b.values.swap(v);
    }
    store_.appendChunk(b.seriesId, b.times, b.values);
    b.times.clear();
    b.values.clear();
}

void SampleWriter::flush() {
    for (Buffer& b : buffers_) flush(b);
}

} // namespace fabscope
