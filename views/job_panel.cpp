#include "views/job_panel.h"

#include "core/analysis/findings.h"
#include "views/store_snapshot.h"

#include <QComboBox>
#include <QHeaderView>
#include <QFileInfo>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace fabscope {
namespace {

QString port(const PortRef& p) { return QString::fromStdString(p.node + " p" + p.port); }

QString percent(double share) { return QString::number(share * 100, 'f', 1); }

// A read-only table of whole rows, one chosen at a time, each column with its header tooltip.
QTableWidget* rowTable(QWidget* parent, const QString& name, const QString& accessible, const QStringList& headers,
                       const QStringList& tips) {
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setObjectName(name);
    t->setAccessibleName(accessible);
    t->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < tips.size() && c < headers.size(); ++c) t->horizontalHeaderItem(c)->setToolTip(tips[c]);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    t->setWordWrap(false);
    return t;
}

} // namespace

JobPanel::JobPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("jobPanel"));
    setAccessibleName(tr("Job routes"));
    jobBox_ = new QComboBox(this);
    jobBox_->setObjectName(QStringLiteral("jobBox"));
    jobBox_->setAccessibleName(tr("Job"));
    jobBox_->setToolTip(tr("The job whose routes are drawn on the fabric"));
    info_ = new QLabel(tr("No analysis yet."), this);
    info_->setObjectName(QStringLiteral("jobInfo"));
    info_->setWordWrap(true);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pairs_ = rowTable(this, QStringLiteral("jobPairs"), tr("Job pairs by headroom"),
                      {tr("Pair (source -> destination)"), tr("Headroom (%)"), tr("Bottleneck hop"), tr("Free (Gb/s)"), tr("Reason"),
                       tr("Routed by")},
                      {tr("Ranks and hosts as NCCL logged them"),
                       tr("Share of capacity left on the pair's route, in %: 1 - p95 utilisation of its worst hop, "
                          "weighted over its equal-cost routes"),
                       tr("The hop with the least headroom: transmitting port -> receiving port"),
                       tr("Free capacity of the bottleneck hop, in Gb/s: the ring's bound through this pair"),
                       tr("Why the bottleneck is tight: utilisation, or the finding that names the link"),
                       tr("Forwarding tables (the route the subnet manager programmed) or 1 of N equal-cost routes (a guess)")});
    ranks_ = rowTable(this, QStringLiteral("jobRanks"), tr("Job ranks and where they run"),
                      {tr("Rank"), tr("Host (adapter)"), tr("Host port"), tr("Switch port"), tr("Median pair headroom (%)"), tr("Named at")},
                      {tr("The rank's number in the communicator"),
                       tr("Host and HCA as the job's file named them (NCCL's log, or the job CSV)"),
                       tr("The host adapter's port the analysis placed the rank on, or \"not on the fabric\" when no "
                          "adapter of the topology has that host's name"),
                       tr("The switch port cabled to the host port: the first hop of every route from this rank"),
                       tr("Median headroom of the scored pairs this rank is in, in %: low when every pair through the rank is "
                          "tight, which tells the rank behind a bottleneck from its partners"),
                       tr("File and line that named the rank's host")});

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("jobTabs"));
    tabs_->addTab(pairs_, tr("Pairs"));
    tabs_->addTab(ranks_, tr("Ranks"));
    tabs_->setTabToolTip(0, tr("The job's rank pairs by the headroom their routes meet, worst first"));
    tabs_->setTabToolTip(1, tr("Every rank of the job and where it runs on the fabric"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(jobBox_);
    layout->addWidget(info_);
    layout->addWidget(tabs_, 1);

    connect(jobBox_, &QComboBox::currentIndexChanged, this, &JobPanel::showJob);
    auto activate = [this] {
        if (pairs_->currentRow() >= 0) Q_EMIT pairActivated(currentFocus());
    };
    connect(pairs_, &QTableWidget::cellClicked, this, activate);
    connect(pairs_, &QTableWidget::cellActivated, this, activate);
    auto activateRank = [this] {
        const int job = jobBox_->currentIndex();
        if (!snapshot_ || !report_ || job < 0 || job >= static_cast<int>(report_->jobs.size()) || ranks_->currentRow() < 0) return;
        Q_EMIT rankActivated(focusOfRank(*snapshot_, report_->jobs[static_cast<std::size_t>(job)], static_cast<std::size_t>(ranks_->currentRow())));
    };
    connect(ranks_, &QTableWidget::cellClicked, this, activateRank);
    connect(ranks_, &QTableWidget::cellActivated, this, activateRank);
}

void JobPanel::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) { snapshot_ = std::move(snapshot); }

void JobPanel::setReport(std::shared_ptr<const FindingsReport> report) {
    report_ = std::move(report);
    const QString before = jobBox_->currentText().section(QLatin1Char(' '), 0, 0);
    const QSignalBlocker block(jobBox_);
    jobBox_->clear();
    if (report_)
        for (const JobRoutes& j : report_->jobs)
            jobBox_->addItem(tr("%1 (%2 ranks)").arg(QString::fromStdString(j.name)).arg(j.ranks));
    const int keep = jobBox_->findText(before, Qt::MatchStartsWith);  // the same job after a re-analysis
    jobBox_->setCurrentIndex(keep >= 0 ? keep : 0);
    showJob(jobBox_->currentIndex());
}

void JobPanel::showJob(int index) {
    pairs_->setRowCount(0);
    ranks_->setRowCount(0);
    tabs_->setTabText(1, tr("Ranks"));
    if (!report_ || index < 0 || index >= static_cast<int>(report_->jobs.size())) {
        info_->setText(report_ ? tr("No jobs in this store: import an NCCL log (NCCL_DEBUG=INFO) or a job CSV.") : tr("No analysis yet."));
        return;
    }
    const JobRoutes& j = report_->jobs[static_cast<std::size_t>(index)];
    QString text = tr("%1 host(s), %2 ring channel(s), %3 tree channel(s)")
                       .arg(j.hosts.size())
                       .arg(j.ringChannels)
                       .arg(j.treeChannels);
    if (!j.ncclVersion.empty()) text += tr("; NCCL %1").arg(QString::fromStdString(j.ncclVersion));
    if (j.ranksUnplaced) text += tr("; %1 rank(s) not on the fabric").arg(j.ranksUnplaced);
    if (j.pairs.empty()) {
        text += tr(". No pair could be routed.");
    } else {
        text += tr(". %1 pair(s) scored, median headroom %2 %.").arg(j.pairs.size()).arg(percent(j.medianHeadroom));
        text += j.stragglerFinding.empty()
                    ? tr(" No straggler path: no pair stands out against the others.")
                    : tr(" Straggler path (%1): the first pair; its route is drawn in blue, hop by hop.")
                          .arg(QString::fromStdString(j.stragglerFinding));
    }
    info_->setText(text);
    showRanks(j);
    pairs_->setRowCount(static_cast<int>(j.pairs.size()));
    for (int r = 0; r < pairs_->rowCount(); ++r) {
        const JobPairRoute& p = j.pairs[static_cast<std::size_t>(r)];
        const std::size_t h = 2 * p.bottleneckHop;
        const QStringList cells{
            tr("rank %1 (%2) -> rank %3 (%4)")
                .arg(p.srcRank)
                .arg(QString::fromStdString(p.srcHost))
                .arg(p.dstRank)
                .arg(QString::fromStdString(p.dstHost)),
            percent(p.headroom),
            h + 1 < p.path.size() ? port(p.path[h]) + QStringLiteral(" -> ") + port(p.path[h + 1]) : QStringLiteral("-"),
            QString::number(p.bottleneckGbps, 'f', 1),
            QString::fromStdString(p.reason),
            p.routedBy == "forwarding_tables" ? tr("forwarding tables") : tr("1 of %1 equal-cost routes").arg(p.routes)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == 1 || c == 3) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (r == 0 && !j.stragglerFinding.empty()) item->setForeground(QColor(180, 30, 30));
            pairs_->setItem(r, c, item);
        }
    }
    pairs_->resizeColumnsToContents();
}

void JobPanel::showRanks(const JobRoutes& j) {
    tabs_->setTabText(1, j.ranksUnplaced ? tr("Ranks (%1, %2 off the fabric)").arg(j.rankPlaces.size()).arg(j.ranksUnplaced)
                                         : tr("Ranks (%1)").arg(j.rankPlaces.size()));
    const QString file = QFileInfo(QString::fromStdString(j.file)).fileName();
    ranks_->setRowCount(static_cast<int>(j.rankPlaces.size()));
    for (int r = 0; r < ranks_->rowCount(); ++r) {
        const JobRankPlace& p = j.rankPlaces[static_cast<std::size_t>(r)];
        const QString host = QString::fromStdString(p.host) + (p.device.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(p.device)));
        const QStringList cells{QString::number(p.rank), host, p.port ? port(*p.port) : tr("not on the fabric"),
                                p.switchPort ? port(*p.switchPort) : QStringLiteral("-"),
                                p.medianPairHeadroom ? percent(*p.medianPairHeadroom) : QStringLiteral("-"),
                                p.line <= 0       ? file
                                : file.isEmpty() ? tr("line %1").arg(p.line)
                                                 : QStringLiteral("%1:%2").arg(file).arg(p.line)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == 0 || c == 4) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!p.port) item->setForeground(QColor(180, 30, 30));
            ranks_->setItem(r, c, item);
        }
        if (!p.port) ranks_->item(r, 2)->setToolTip(tr("No host adapter of the topology is named %1: its pairs are not routed").arg(host));
    }
    ranks_->resizeColumnsToContents();
}

FindingFocus JobPanel::currentFocus() const {
    const int job = jobBox_->currentIndex();
    if (!snapshot_ || !report_ || job < 0 || job >= static_cast<int>(report_->jobs.size())) return {};
    return focusOfJob(*snapshot_, report_->jobs[static_cast<std::size_t>(job)],
                      static_cast<std::size_t>(std::max(0, pairs_->currentRow())));
}

} // namespace fabscope
