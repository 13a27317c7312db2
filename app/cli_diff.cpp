#include "app/cli_diff.h"

#include "app/cli.h"
#include "app/cli_args.h"
#include "core/analysis/incidents.h"
#include "core/analysis/topology_change.h"
#include "core/diagnostics.h"

#include <iostream>
#include <stdexcept>

namespace fabscope::cli {
namespace {

struct DiffArgs {
    std::string db;
    std::vector<std::string> snapshots;
    bool json = false;
};

DiffArgs parseArgs(const std::vector<std::string>& args) {
    const Args parsed = parse(args, {"db", "snapshot"}, {"json"});
    parsed.noPositional();
    DiffArgs a{parsed.require("db"), parsed.all("snapshot"), parsed.flag("json")};
    if (a.snapshots.size() != 2) throw UsageError("diff needs exactly two --snapshot labels (A, then B)");
    return a;
}

} // namespace

int cmdDiff(const std::vector<std::string>& args) {
    DiffArgs a;
    try {
        a = parseArgs(args);
    } catch (const UsageError& e) {
        std::cerr << "fabscope diff: " << e.what() << "\n\n" << usage();
        return kUsage;
    }
    try {
        const Store store(a.db, Store::Mode::ReadOnly);
        std::optional<SnapshotInfo> snaps[2];
        for (int i = 0; i < 2; ++i) {
            snaps[i] = store.snapshotByLabel(a.snapshots[static_cast<std::size_t>(i)]);
            if (!snaps[i]) {
                std::cerr << "fabscope diff: no snapshot labelled '" << a.snapshots[static_cast<std::size_t>(i)] << "' in "
                          << a.db << " (see `fabscope info`)\n";
                return kBadInput;
            }
        }
        FindingsReport report;
        report.windowStart = snaps[0]->time;
        report.windowEnd = snaps[1]->time;
        // A cabling plan on one side: the other fabric is checked against it, whichever was named first.
        const bool planFirst = snaps[0]->planned && !snaps[1]->planned, planSecond = snaps[1]->planned && !snaps[0]->planned;
        if (planFirst || planSecond) {
            const SnapshotInfo& plan = planFirst ? *snaps[0] : *snaps[1];
            const SnapshotInfo& fabric = planFirst ? *snaps[1] : *snaps[0];
            report.findings = diffAgainstPlan(store.loadFabric(plan.id), plan.label, store.loadFabric(fabric.id), fabric.time);
            report.windowStart = fabric.time;  // what was seen, and when: the plan has no time of its own
            report.windowEnd = fabric.time;
        } else {
            report.findings = diffTopology(store.loadFabric(snaps[0]->id), snaps[0]->time, store.loadFabric(snaps[1]->id), snaps[1]->time);
        }
        sortAndNumber(report.findings);
        groupIncidents(report);
        if (a.json) {
            std::cout << findingsJson(report) << '\n';
            return kOk;
        }
        std::cout << "topology " << snaps[0]->label << " -> " << snaps[1]->label << ": ";
        if (report.findings.empty()) std::cout << "no differences\n";
        else std::cout << report.findings.size() << " change" << (report.findings.size() == 1 ? "" : "s") << '\n';
        for (const auto& f : report.findings) {
            std::string change;
            for (const auto& [k, v] : f.metrics)
                if (k == "change") change = std::get<std::string>(v);
            std::cout << "  " << change << (change.size() < 11 ? std::string(11 - change.size(), ' ') : " ") << f.summary
                      << '\n';
        }
        return kOk;
    } catch (const StoreError& e) {
        std::cerr << "fabscope: " << e.what() << '\n';
        return kStoreError;
    }
}

} // namespace fabscope::cli
