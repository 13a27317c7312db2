#include "app/cli_diff.h"

#include "app/cli.h"
#include "core/analysis/topology_change.h"
#include "core/diagnostics.h"

#include <iostream>
#include <stdexcept>

namespace fabscope::cli {
namespace {

struct Usage : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct DiffArgs {
    std::string db;
    std::vector<std::string> snapshots;
    bool json = false;
};

DiffArgs parseArgs(const std::vector<std::string>& args) {
    DiffArgs a;
    bool haveDb = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        std::string name = args[i], value;
        if (!name.starts_with("--")) throw Usage("unexpected argument '" + name + "'");
        name = name.substr(2);
        const auto eq = name.find('=');
        const bool inlineValue = eq != std::string::npos;
        if (inlineValue) {
            value = name.substr(eq + 1);
            name.resize(eq);
        }
        if (name == "json" && !inlineValue) {
            a.json = true;
            continue;
        }
        if (name != "db" && name != "snapshot") throw Usage("unknown option --" + name + " for 'diff'");
        if (!inlineValue) {
            if (i + 1 >= args.size()) throw Usage("--" + name + " needs a value");
            value = args[++i];
        }
        if (name == "db") {
            a.db = value;
            haveDb = true;
        } else {
            a.snapshots.push_back(value);
        }
    }
    if (!haveDb || a.db.empty()) throw Usage("missing --db");
    if (a.snapshots.size() != 2) throw Usage("diff needs exactly two --snapshot labels (A, then B)");
    return a;
}

} // namespace

int cmdDiff(const std::vector<std::string>& args) {
    DiffArgs a;
    try {
        a = parseArgs(args);
    } catch (const Usage& e) {
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
        report.findings = diffTopology(store.loadFabric(snaps[0]->id), snaps[0]->time, store.loadFabric(snaps[1]->id),
                                       snaps[1]->time);
        sortAndNumber(report.findings);
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
