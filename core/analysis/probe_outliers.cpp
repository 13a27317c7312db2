#include "core/analysis/probe_outliers.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace fabscope {
namespace {

std::optional<double> median(std::vector<double> v) {
    if (v.empty()) return std::nullopt;
    std::sort(v.begin(), v.end());
    return percentile(v, 0.5);
}

} // namespace

std::vector<PairVerdict> judgePairs(const std::vector<ProbePair>& pairs, const AnalysisConfig& config) {
    const SlowPairConfig& c = config.slowPair;
    const LossyLinkConfig& l = config.lossyLink;
    std::vector<PairVerdict> out(pairs.size());

    using ClassKey = std::tuple<std::string, std::int64_t, DistanceClass>;
    std::map<ClassKey, std::vector<std::size_t>> classes;
    for (std::size_t i = 0; i < pairs.size(); ++i) classes[{pairs[i].tool, pairs[i].msgBytes, pairs[i].distance}].push_back(i);

    for (const auto& [key, members] : classes) {
        std::vector<double> p99, jitter, bw;
        for (auto i : members) {
            if (pairs[i].p99) p99.push_back(*pairs[i].p99);
            if (auto j = pairs[i].jitter()) jitter.push_back(*j);
            if (pairs[i].bwGbps) bw.push_back(*pairs[i].bwGbps);
        }
        const auto mP99 = median(p99), mJitter = median(jitter), mBw = median(bw);
        const bool enough = members.size() >= static_cast<std::size_t>(c.minPairs);
        for (auto i : members) {
            const ProbePair& p = pairs[i];
            PairVerdict& v = out[i];
            v.classP99 = mP99;
            v.classJitter = mJitter;
            v.classBwGbps = mBw;
            v.classPairs = members.size();
            v.lossy = p.sent > 0 && p.lossRate() >= l.pairLoss && static_cast<double>(p.lost) >= l.minLost;
            if (!enough) continue;
            if (p.p99 && mP99)
                v.slow = *p.p99 >= c.latencyFactor * *mP99 && *p.p99 - *mP99 >= c.minExcessUs;
            if (auto j = p.jitter(); j && mJitter)
                v.jittery = *j >= c.jitterFactor * *mJitter && *j - *mJitter >= c.minExcessUs;
            if (p.bwGbps && mBw) v.lowBandwidth = *p.bwGbps <= c.bwRatio * *mBw;
        }
    }

    // A host whose pairs are slow towards most of its peers carries their latency itself.
    std::map<std::string, std::pair<std::size_t, std::size_t>> byHost;  // host -> (pairs, slow pairs)
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (!pairs[i].p99) continue;
        for (const std::string* h : {&pairs[i].src, &pairs[i].dst}) {
            auto& [all, slow] = byHost[*h];
            ++all;
            if (out[i].latency()) ++slow;
        }
    }
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (!out[i].latency()) continue;
        for (const std::string* h : {&pairs[i].src, &pairs[i].dst}) {
            const auto [all, slow] = byHost[*h];
            if (all >= static_cast<std::size_t>(c.minPairs) && static_cast<double>(slow) >= c.slowHostShare * static_cast<double>(all) &&
                (out[i].slowHost.empty() || slow * out[i].slowHostPeers > out[i].slowHostSlowPeers * all)) {
                out[i].slowHost = *h;
                out[i].slowHostPeers = all;
                out[i].slowHostSlowPeers = slow;
            }
        }
    }
    return out;
}

} // namespace fabscope
