// link_flap: LinkDownedCounter (link_downed) increased within the window. Both ends of a link
// usually count the same event, so a link gives one finding, not one per end.
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"

#include <algorithm>
#include <map>

namespace fabscope {
namespace {

struct Flap {
    SeriesPort port;
    std::optional<PortId> peer;
    double count = 0, start = 0, end = 0;
};

} // namespace

void detectLinkFlaps(const AnalysisContext& ctx, std::vector<Finding>& out) {
    // Keyed by link when the port is on one, else by the port alone (a port whose link was down
    // when the topology was taken has no link in the snapshot).
    std::map<std::pair<std::int64_t, SeriesPort>, Flap> flaps;
    for (const auto& [sp, seriesId] : ctx.seriesOf("link_downed")) {
        if (ctx.peakRate(ctx.store(), seriesId) <= 0) continue;  // never rose in the window: no flap, nothing to load
        const RateSeries r = ctx.rates(seriesId, "link_downed");
        Flap fl{sp, std::nullopt, 0, 0, 0};
        bool any = false;
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (!r.ok(i) || r.delta[i] <= 0) continue;
            if (!any) fl.start = static_cast<double>(r.startMs[i]) / 1000.0;
            fl.end = static_cast<double>(r.endMs[i]) / 1000.0;
            fl.count += r.delta[i];
            any = true;
        }
        if (!any || fl.count < ctx.config().linkFlap.minCount) continue;
        std::pair<std::int64_t, SeriesPort> key{-1, sp};
        if (auto p = ctx.fabricPort(sp))
            if (auto l = ctx.linkOf(*p)) {
                key = {static_cast<std::int64_t>(l->value()), SeriesPort{}};
                fl.peer = ctx.peer(*l, *p);
            }
        auto [it, inserted] = flaps.emplace(key, fl);
        if (inserted) continue;
        Flap& have = it->second;
        const Flap merged{fl.count > have.count ? fl.port : have.port, fl.count > have.count ? fl.peer : have.peer,
                          std::max(fl.count, have.count), std::min(fl.start, have.start), std::max(fl.end, have.end)};
        have = merged;
    }
    for (const auto& [key, fl] : flaps) {
        Finding f;
        f.kind = FindingKind::LinkFlap;
        f.severity = FindingSeverity::Warning;
        f.start = fl.start;
        f.end = fl.end;
        f.ports.push_back(ctx.ref(fl.port));
        if (fl.peer) f.ports.push_back(ctx.ref(*fl.peer));
        f.summary = AnalysisContext::label(f.ports[0]) +
                    (f.ports.size() > 1 ? " <-> " + AnalysisContext::label(f.ports[1]) : std::string()) + " went down " +
                    numfmt::num(fl.count) + (fl.count == 1 ? " time" : " times");
        f.metrics = {{"count", fl.count}};
        out.push_back(std::move(f));
    }
}

} // namespace fabscope
