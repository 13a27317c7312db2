#include "core/analysis/analysis_config.h"

#include "core/linkrate.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fabscope {

ErrorThresholds defaultErrorThresholds() {
    // Healthy HDR/NDR links see almost no symbol or receive errors; a slow trickle (a few per
    // hour) is normal on long cables, a steady > 1/min points at a bad cable or transceiver.
    // min_count 10 matches ibqueryerrors' default threshold, so a single burst does not fire.
    // Link error recovery means the link retrained: a couple per hour is already worth a look.
    // Any FEC-uncorrectable block is lost data. Discards come with congestion, 1/min as well.
    return {
        {"symbol_errors", {1.0 / 60, 10}},
        {"link_error_recovery", {1.0 / 3600, 2}},
        {"rcv_errors", {1.0 / 60, 10}},
        {"fec_uncorrectable", {0, 1}},
        {"xmit_discards", {1.0 / 60, 10}},
    };
}

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& what) { throw ConfigError(what); }

const json& objectAt(const json& j, const char* key) {
    const json& v = j.at(key);
    if (!v.is_object()) fail(std::string("'") + key + "' must be an object");
    return v;
}

void checkKeys(const json& j, std::initializer_list<std::string_view> known, const std::string& where) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        bool ok = false;
        for (auto k : known) ok = ok || it.key() == k;
        if (!ok) fail("unknown key '" + it.key() + "' in " + where);
    }
}

double number(const json& j, const char* key, double min, double max, const std::string& where) {
    const json& v = j.at(key);
    if (!v.is_number()) fail(where + "." + key + " must be a number");
    const double d = v.get<double>();
    if (d < min || d > max) fail(where + "." + key + " out of range");
    return d;
}

void readHotLink(const json& j, HotLinkConfig& c) {
    checkKeys(j, {"util", "critical_util", "min_samples"}, "hot_link");
    if (j.contains("util")) c.util = number(j, "util", 0, 10, "hot_link");
    if (j.contains("critical_util")) c.criticalUtil = number(j, "critical_util", 0, 10, "hot_link");
    if (j.contains("min_samples")) c.minSamples = static_cast<int>(number(j, "min_samples", 1, 1e9, "hot_link"));
}

void readDegraded(const json& j, DegradedLinkConfig& c) {
    checkKeys(j, {"expected_width", "expected_speed"}, "degraded_link");
    if (j.contains("expected_width")) c.expectedWidth = static_cast<int>(number(j, "expected_width", 1, 32, "degraded_link"));
    if (j.contains("expected_speed")) {
        if (!j["expected_speed"].is_string()) fail("degraded_link.expected_speed must be a string such as \"HDR\"");
        c.expectedSpeed = j["expected_speed"].get<std::string>();
        if (!laneRateGbps(*c.expectedSpeed)) fail("degraded_link.expected_speed '" + *c.expectedSpeed + "' is not a known speed (SDR..XDR)");
    }
}

void readErrors(const json& j, ErrorLinkConfig& c) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "critical_factor") {
            c.criticalFactor = number(j, "critical_factor", 1, 1e12, "error_link");
            continue;
        }
        if (it.key() == "effective_ber" || it.key() == "symbol_ber") {
            (it.key() == "effective_ber" ? c.effectiveBer : c.symbolBer) = number(j, it.key().c_str(), 0, 1, "error_link");
            continue;
        }
        // Any canonical counter may get a threshold, not only the defaults' five.
        if (!it->is_object()) fail("error_link." + it.key() + " must be an object {\"per_s\": .., \"min_count\": ..}");
        const std::string where = "error_link." + it.key();
        checkKeys(*it, {"per_s", "min_count"}, where);
        ErrorThreshold t = c.counters.count(it.key()) ? c.counters.find(it.key())->second : ErrorThreshold{};
        if (it->contains("per_s")) t.perSecond = number(*it, "per_s", 0, 1e18, where);
        if (it->contains("min_count")) t.minCount = number(*it, "min_count", 0, 1e18, where);
        c.counters[it.key()] = t;
    }
}

bool flag(const json& j, const char* key, const std::string& where) {
    const json& v = j.at(key);
    if (!v.is_boolean()) fail(where + "." + key + " must be true or false");
    return v.get<bool>();
}

void readNewKinds(const json& j, AnalysisConfig& c) {
    if (j.contains("congestion_tree")) {
        const json& o = objectAt(j, "congestion_tree");
        auto& t = c.congestionTree;
        checkKeys(o, {"share", "critical_share", "min_samples", "tick_ns"}, "congestion_tree");
        if (o.contains("share")) t.share = number(o, "share", 0, 1, "congestion_tree");
        if (o.contains("critical_share")) t.criticalShare = number(o, "critical_share", 0, 1, "congestion_tree");
        if (o.contains("min_samples")) t.minSamples = static_cast<int>(number(o, "min_samples", 1, 1e9, "congestion_tree"));
        if (o.contains("tick_ns")) t.tickNs = number(o, "tick_ns", 1e-3, 1e9, "congestion_tree");
    }
    if (j.contains("pfc_storm")) {
        const json& o = objectAt(j, "pfc_storm");
        auto& t = c.pfcStorm;
        checkKeys(o, {"share", "min_samples", "frame_quanta", "xoff_refresh", "default_speed_gbps", "origin_rx_ratio",
                      "critical_share", "deadlock_min_samples", "disagreement"},
                  "pfc_storm");
        if (o.contains("xoff_refresh")) t.xoffRefresh = number(o, "xoff_refresh", 1, 16, "pfc_storm");
        if (o.contains("default_speed_gbps")) t.defaultSpeedGbps = number(o, "default_speed_gbps", 1, 3200, "pfc_storm");
        if (o.contains("origin_rx_ratio")) t.originRxRatio = number(o, "origin_rx_ratio", 0, 1, "pfc_storm");
        if (o.contains("critical_share")) t.criticalShare = number(o, "critical_share", 0, 1, "pfc_storm");
        if (o.contains("deadlock_min_samples"))
            t.deadlockMinSamples = static_cast<int>(number(o, "deadlock_min_samples", 1, 1e9, "pfc_storm"));
        if (o.contains("disagreement")) t.disagreement = number(o, "disagreement", 0, 1, "pfc_storm");
        if (o.contains("share")) t.share = number(o, "share", 0, 1, "pfc_storm");
        if (o.contains("min_samples")) t.minSamples = static_cast<int>(number(o, "min_samples", 1, 1e9, "pfc_storm"));
        if (o.contains("frame_quanta")) t.frameQuanta = number(o, "frame_quanta", 1, 65535, "pfc_storm");
    }
    if (j.contains("ecmp_imbalance")) {
        const json& o = objectAt(j, "ecmp_imbalance");
        auto& t = c.ecmpImbalance;
        checkKeys(o, {"ratio", "min_mean_util", "min_samples", "skip_hot"}, "ecmp_imbalance");
        if (o.contains("ratio")) t.ratio = number(o, "ratio", 1, 1e9, "ecmp_imbalance");
        if (o.contains("min_mean_util")) t.minMeanUtil = number(o, "min_mean_util", 0, 10, "ecmp_imbalance");
        if (o.contains("min_samples")) t.minSamples = static_cast<int>(number(o, "min_samples", 1, 1e9, "ecmp_imbalance"));
        if (o.contains("skip_hot")) t.skipHot = flag(o, "skip_hot", "ecmp_imbalance");
    }
    if (j.contains("straggler_path")) {
        const json& o = objectAt(j, "straggler_path");
        auto& t = c.stragglerPath;
        checkKeys(o, {"ring_above", "outlier_ratio", "min_pairs", "flagged_penalty", "max_routes", "critical_headroom", "all_pairs"}, "straggler_path");
        if (o.contains("all_pairs")) t.allPairs = flag(o, "all_pairs", "straggler_path");
        if (o.contains("critical_headroom")) t.criticalHeadroom = number(o, "critical_headroom", 0, 1, "straggler_path");
        if (o.contains("ring_above")) t.ringAbove = static_cast<int>(number(o, "ring_above", 1, 1e9, "straggler_path"));
        if (o.contains("outlier_ratio")) t.outlierRatio = number(o, "outlier_ratio", 0, 1, "straggler_path");
        if (o.contains("min_pairs")) t.minPairs = static_cast<int>(number(o, "min_pairs", 2, 1e9, "straggler_path"));
        if (o.contains("flagged_penalty")) t.flaggedPenalty = number(o, "flagged_penalty", 0, 1, "straggler_path");
        if (o.contains("max_routes")) t.maxRoutes = static_cast<int>(number(o, "max_routes", 1, 1e6, "straggler_path"));
    }
}

void readProbeKinds(const json& j, AnalysisConfig& c) {
    if (j.contains("lossy_link")) {
        const json& o = objectAt(j, "lossy_link");
        auto& t = c.lossyLink;
        checkKeys(o, {"pair_loss", "min_lost", "min_bad_votes", "max_good_share", "critical_loss", "max_routes"}, "lossy_link");
        if (o.contains("pair_loss")) t.pairLoss = number(o, "pair_loss", 0, 1, "lossy_link");
        if (o.contains("min_lost")) t.minLost = number(o, "min_lost", 0, 1e18, "lossy_link");
        if (o.contains("min_bad_votes")) t.minBadVotes = number(o, "min_bad_votes", 0, 1e9, "lossy_link");
        if (o.contains("max_good_share")) t.maxGoodShare = number(o, "max_good_share", 0, 1, "lossy_link");
        if (o.contains("critical_loss")) t.criticalLoss = number(o, "critical_loss", 0, 1, "lossy_link");
        if (o.contains("max_routes")) t.maxRoutes = static_cast<int>(number(o, "max_routes", 1, 1e6, "lossy_link"));
    }
    if (j.contains("slow_pair")) {
        const json& o = objectAt(j, "slow_pair");
        auto& t = c.slowPair;
        checkKeys(o, {"latency_factor", "jitter_factor", "min_excess_us", "bw_ratio", "min_pairs", "slow_host_share"}, "slow_pair");
        if (o.contains("latency_factor")) t.latencyFactor = number(o, "latency_factor", 1, 1e9, "slow_pair");
        if (o.contains("jitter_factor")) t.jitterFactor = number(o, "jitter_factor", 1, 1e9, "slow_pair");
        if (o.contains("min_excess_us")) t.minExcessUs = number(o, "min_excess_us", 0, 1e12, "slow_pair");
        if (o.contains("bw_ratio")) t.bwRatio = number(o, "bw_ratio", 0, 1, "slow_pair");
        if (o.contains("min_pairs")) t.minPairs = static_cast<int>(number(o, "min_pairs", 2, 1e9, "slow_pair"));
        if (o.contains("slow_host_share")) t.slowHostShare = number(o, "slow_host_share", 0, 1, "slow_pair");
    }
    if (j.contains("pair_benchmark")) {
        const json& o = objectAt(j, "pair_benchmark");
        auto& t = c.pairBenchmark;
        const char* k = "pair_benchmark";
        checkKeys(o, {"min_size_bytes", "min_drop", "mad_factor", "min_runs", "host_alpha", "host_min_share", "protocol_efficiency"}, k);
        if (o.contains("min_size_bytes")) t.minSizeBytes = number(o, "min_size_bytes", 0, 1e18, k);
        if (o.contains("min_drop")) t.minDrop = number(o, "min_drop", 0, 1, k);
        if (o.contains("mad_factor")) t.madFactor = number(o, "mad_factor", 0, 1e9, k);
        if (o.contains("min_runs")) t.minRuns = static_cast<int>(number(o, "min_runs", 2, 1e9, k));
        if (o.contains("host_alpha")) t.hostAlpha = number(o, "host_alpha", 0, 1, k);
        if (o.contains("host_min_share")) t.hostMinShare = number(o, "host_min_share", 0, 1, k);
        if (o.contains("protocol_efficiency")) t.protocolEfficiency = number(o, "protocol_efficiency", 0.01, 1, k);
    }
    if (j.contains("compare")) {
        const json& o = objectAt(j, "compare");
        auto& t = c.compare;
        checkKeys(o, {"min_util_change", "min_relative_change", "min_busbw_change"}, "compare");
        if (o.contains("min_util_change")) t.minUtilChange = number(o, "min_util_change", 0, 1, "compare");
        if (o.contains("min_relative_change")) t.minRelativeChange = number(o, "min_relative_change", 0, 1, "compare");
        if (o.contains("min_busbw_change")) t.minBusbwChange = number(o, "min_busbw_change", 0, 1, "compare");
    }
}

} // namespace

AnalysisConfig parseAnalysisConfig(std::string_view text) {
    AnalysisConfig c;
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        fail(std::string("not valid JSON: ") + e.what());
    }
    if (!j.is_object()) fail("the config must be a JSON object");
    checkKeys(j, {"gap_factor", "hot_link", "degraded_link", "error_link", "link_flap", "congestion_tree", "pfc_storm",
                 "ecmp_imbalance", "straggler_path", "lossy_link", "slow_pair", "pair_benchmark", "compare", "optics"},
              "the config");
    readNewKinds(j, c);
    readProbeKinds(j, c);
    if (j.contains("gap_factor")) c.gapFactor = number(j, "gap_factor", 1, 1e9, "config");
    if (j.contains("hot_link")) readHotLink(objectAt(j, "hot_link"), c.hotLink);
    if (j.contains("degraded_link")) readDegraded(objectAt(j, "degraded_link"), c.degradedLink);
    if (j.contains("error_link")) readErrors(objectAt(j, "error_link"), c.errorLink);
    if (j.contains("link_flap")) {
        const json& f = objectAt(j, "link_flap");
        checkKeys(f, {"min_count"}, "link_flap");
        if (f.contains("min_count")) c.linkFlap.minCount = number(f, "min_count", 1, 1e18, "link_flap");
    }
    if (j.contains("optics")) {
        const json& o = objectAt(j, "optics");
        checkKeys(o, {"temperature_margin_c", "rx_lane_spread_db"}, "optics");
        if (o.contains("temperature_margin_c")) c.optics.temperatureMarginC = number(o, "temperature_margin_c", 0, 200, "optics");
        if (o.contains("rx_lane_spread_db")) c.optics.rxLaneSpreadDb = number(o, "rx_lane_spread_db", 0, 100, "optics");
    }
    return c;
}

AnalysisConfig loadAnalysisConfig(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ConfigError(path + ": cannot read the config file");
    std::ostringstream s;
    s << in.rdbuf();
    try {
        return parseAnalysisConfig(s.str());
    } catch (const ConfigError& e) {
        throw ConfigError(path + ": " + e.what());
    }
}

std::string userConfigPath() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/fabscope/analysis.json";
    if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/fabscope/analysis.json";
    return {};
}

AnalysisConfig loadUserConfig() {
    const std::string path = userConfigPath();
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(path, ec)) return {};
    return loadAnalysisConfig(path);
}

AnalysisConfig saveUserConfig(const std::string& json) {
    const AnalysisConfig config = parseAnalysisConfig(json);
    const std::string path = userConfigPath();
    if (path.empty()) throw ConfigError("no HOME or XDG_CONFIG_HOME: nowhere to keep the config");
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << json;
        if (!out.flush()) throw ConfigError(path + ": cannot write the config file");
    }
    std::filesystem::rename(tmp, path, ec);  // whole or not at all
    if (ec) throw ConfigError(path + ": cannot write the config file: " + ec.message());
    return config;
}

} // namespace fabscope
