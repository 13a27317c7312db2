#pragma once
// The kinds of finding and their one table of names: the `kind` of the findings JSON
// (docs/FINDINGS.md, "What each finding means"). A new kind is one enumerator and one row here.
#include <array>
#include <optional>
#include <string_view>

namespace fabscope {

enum class FindingKind {
    HotLink,
    EcmpImbalance,
    DegradedLink,
    ErrorLink,
    LinkFlap,
    PfcStorm,
    CongestionTree,
    StragglerPath,
    TopologyChange,
    LossyLink,
    SlowPair,
    SlowHost,
};

struct FindingKindInfo {
    FindingKind kind;
    std::string_view name;     // in the findings JSON and finding ids ("hot_link-3"); never changes
    std::string_view meaning;  // one line; the rules in full: docs/FINDINGS.md, docs/ANALYSIS.md
};

// In enum order: kFindingKinds[static_cast<std::size_t>(k)].kind == k.
inline constexpr std::array<FindingKindInfo, 12> kFindingKinds{{
    {FindingKind::HotLink, "hot_link", "a link direction near its capacity for several samples"},
    {FindingKind::EcmpImbalance, "ecmp_imbalance", "one of a switch's equal-cost next hops carries far more than the others"},
    {FindingKind::DegradedLink, "degraded_link", "a link running narrower or slower than its class or the expected value"},
    {FindingKind::ErrorLink, "error_link", "error counters of a link rising faster than their thresholds"},
    {FindingKind::LinkFlap, "link_flap", "a link went down (LinkDownedCounter or carrier changes rose)"},
    {FindingKind::PfcStorm, "pfc_storm", "PFC pauses sent for much of several intervals, traced to their origin"},
    {FindingKind::CongestionTree, "congestion_tree", "ports waiting to transmit, joined into a tree pointing at its root"},
    {FindingKind::StragglerPath, "straggler_path", "a job's worst-routed communicating pair, an outlier among its pairs"},
    {FindingKind::TopologyChange, "topology_change", "links added, removed, moved or changed width/speed between snapshots"},
    {FindingKind::LossyLink, "lossy_link", "a link blamed by the probe pairs crossing it for loss or latency"},
    {FindingKind::SlowPair, "slow_pair", "a host pair whose probes or benchmarks are outliers at its distance"},
    {FindingKind::SlowHost, "slow_host", "a host in slow or failed pairs far more often than chance would give"},
}};

constexpr const FindingKindInfo& kindInfo(FindingKind k) { return kFindingKinds[static_cast<std::size_t>(k)]; }
constexpr std::string_view kindName(FindingKind k) { return kindInfo(k).name; }

constexpr std::optional<FindingKind> parseKind(std::string_view name) {
    for (const FindingKindInfo& i : kFindingKinds)
        if (i.name == name) return i.kind;
    return std::nullopt;
}

namespace detail {
constexpr bool kindTableInOrder() {
    for (std::size_t i = 0; i < kFindingKinds.size(); ++i)
        if (static_cast<std::size_t>(kFindingKinds[i].kind) != i) return false;
    return true;
}
} // namespace detail
static_assert(detail::kindTableInOrder(), "kFindingKinds rows must follow the enum order");

} // namespace fabscope
