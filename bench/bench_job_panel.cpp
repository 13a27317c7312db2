// bench_job_panel: how long the Job routes dock holds the GUI thread for a large job, against the
// way the dock filled its tables before (a QTableWidget item per cell, then columns sized to
// their contents). A synthetic job of N ranks on N hosts with 2N scored pairs (a ring and a
// tree's worth), for N = 1,024, 16,384 and 65,536; then, on the largest, a filter keystroke and
// a sort by the median pair headroom. Both sides' cells are compared. Offscreen.
//   bench_job_panel [--ranks N]...
#include "core/analysis/findings.h"
#include "views/job_panel.h"
#include "views/job_tables.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLineEdit>
#include <QTableView>
#include <QTableWidget>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace fabscope;

namespace {

std::shared_ptr<const FindingsReport> syntheticJob(int ranks) {
    auto report = std::make_shared<FindingsReport>();
    JobRoutes j;
    j.id = 1;
    j.name = "train";
    j.file = "/var/log/train/nccl-rank0.log";
    j.ranks = static_cast<std::size_t>(ranks);
    j.ringChannels = 8;
    j.treeChannels = 8;
    auto hostOf = [](int r) {
        char name[32];
        std::snprintf(name, sizeof name, "gpu%05d", r);
        return std::string(name);
    };
    for (int r = 0; r < ranks; ++r) {
        JobRankPlace p;
        p.rank = r;
        p.host = hostOf(r);
        p.device = "mlx5_0";
        p.line = 100 + r;
        if (r % 997 != 5) {  // a few hosts not on the fabric
            p.port = PortRef{p.host + " mlx5_0", "", "1"};
            p.switchPort = PortRef{"leaf" + std::to_string(r / 32), "", std::to_string(r % 32 + 1)};
            p.medianPairHeadroom = 0.3 + 0.7 * static_cast<double>((r * 7919) % 1000) / 1000;
        } else {
            ++j.ranksUnplaced;
        }
        j.hosts.push_back(p.host + " mlx5_0");
        j.rankPlaces.push_back(std::move(p));
    }
    for (int k = 0; k < 2 * ranks; ++k) {
        JobPairRoute p;
        p.srcRank = k % ranks;
        p.dstRank = k < ranks ? (p.srcRank + 1) % ranks : (p.srcRank * 2 + 1) % ranks;
        p.srcHost = hostOf(p.srcRank);
        p.dstHost = hostOf(p.dstRank);
        p.headroom = static_cast<double>((k * 104729) % 1000) / 1000;
        p.bottleneckGbps = 400 * p.headroom;
        p.path = {PortRef{p.srcHost + " mlx5_0", "", "1"}, PortRef{"leaf" + std::to_string(p.srcRank / 32), "", "33"},
                  PortRef{"spine" + std::to_string(k % 16), "", "4"}, PortRef{p.dstHost + " mlx5_0", "", "1"}};
        p.bottleneckHop = 1;
        p.routes = 16;
        p.routedBy = "equal_cost";
        p.reason = "utilisation";
        j.pairs.push_back(std::move(p));
    }
    std::stable_sort(j.pairs.begin(), j.pairs.end(), [](const JobPairRoute& a, const JobPairRoute& b) { return a.headroom < b.headroom; });
    j.medianHeadroom = j.pairs[j.pairs.size() / 2].headroom;
    report->jobs.push_back(std::move(j));
    return report;
}

// The dock before: an item per cell of every row, then the columns sized to their contents.
void fillWidget(QTableWidget& t, const QAbstractItemModel& cells) {
    t.setColumnCount(cells.columnCount());
    t.setRowCount(cells.rowCount());
    for (int r = 0; r < cells.rowCount(); ++r)
        for (int c = 0; c < cells.columnCount(); ++c) t.setItem(r, c, new QTableWidgetItem(cells.index(r, c).data().toString()));
    t.resizeColumnsToContents();
}

bool sameCells(const QTableWidget& t, const QAbstractItemModel& m) {
    if (t.rowCount() != m.rowCount() || t.columnCount() != m.columnCount()) return false;
    for (int r = 0; r < m.rowCount(); ++r)
        for (int c = 0; c < m.columnCount(); ++c)
            if (t.item(r, c)->text() != m.index(r, c).data().toString()) return false;
    return true;
}

double msSince(const QElapsedTimer& t) { return static_cast<double>(t.nsecsElapsed()) / 1e6; }

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::vector<int> sizes;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--ranks") == 0) sizes.push_back(std::max(2, std::atoi(argv[i + 1])));
    if (sizes.empty()) sizes = {1024, 16384, 65536};
    bool allAgree = true;
    for (const int n : sizes) {
        const auto report = syntheticJob(n);
        std::vector<double> ours, before;
        bool agree = true;
        for (int run = 0; run < 3; ++run) {
            JobPanel panel;
            panel.resize(900, 700);
            panel.show();
            QElapsedTimer t;
            t.start();
            panel.setReport(report);
            ours.push_back(msSince(t));

            QTableWidget pairs, ranks;
            pairs.resize(900, 600);
            ranks.resize(900, 600);
            t.start();
            fillWidget(pairs, *panel.pairs()->model());
            fillWidget(ranks, *panel.ranks()->model());
            before.push_back(msSince(t));
            agree = agree && sameCells(pairs, *panel.pairs()->model()) && sameCells(ranks, *panel.ranks()->model());
        }
        std::sort(ours.begin(), ours.end());
        std::sort(before.begin(), before.end());
        allAgree = allAgree && agree;
        std::printf("job of %d ranks, %d pairs: dock filled in %.1f ms (median of 3), an item per cell %.1f ms: %.0fx; cells %s\n", n, 2 * n,
                    ours[1], before[1], before[1] / std::max(ours[1], 1e-3), agree ? "agree" : "DISAGREE");
        if (n != sizes.back()) continue;

        // On the largest: what a user does next, each on the GUI thread.
        JobPanel panel;
        panel.resize(900, 700);
        panel.show();
        panel.setReport(report);
        QElapsedTimer t;
        t.start();
        panel.filter()->setText(QStringLiteral("gpu01234"));
        const double filterMs = msSince(t);
        const int keptRanks = panel.ranks()->model()->rowCount(), keptPairs = panel.pairs()->model()->rowCount();
        panel.filter()->clear();
        t.start();
        panel.ranks()->sortByColumn(JobRanksModel::MedianHeadroom, Qt::AscendingOrder);
        const double sortMs = msSince(t);
        // Agreement: the sorted first rank has the lowest median of all.
        double lowest = 2;
        for (const JobRankPlace& p : report->jobs.front().rankPlaces)
            if (p.medianPairHeadroom) lowest = std::min(lowest, *p.medianPairHeadroom);
        const bool sortedRight = panel.ranks()->model()->index(0, JobRanksModel::MedianHeadroom).data().toString() ==
                                 QString::number(lowest * 100, 'f', 1);
        allAgree = allAgree && sortedRight && keptRanks == 1;
        std::printf("  filter 'gpu01234': %.1f ms (%d rank, %d pairs kept); sort ranks by median pair headroom: %.1f ms, lowest first %s\n",
                    filterMs, keptRanks, keptPairs, sortMs, sortedRight ? "agree" : "DISAGREE");
    }
    return allAgree ? 0 : 1;
}
