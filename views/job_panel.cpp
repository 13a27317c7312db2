#include "views/job_panel.h"

#include "core/analysis/findings.h"
#include "views/store_snapshot.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace fabscope {
namespace {

QString port(const PortRef& p) { return QString::fromStdString(p.node + " p" + p.port); }

QString percent(double share) { return QString::number(share * 100, 'f', 1); }

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
    pairs_ = new QTableWidget(0, 6, this);
    pairs_->setObjectName(QStringLiteral("jobPairs"));
    pairs_->setAccessibleName(tr("Job pairs by headroom"));
    pairs_->setHorizontalHeaderLabels({tr("Pair (source -> destination)"), tr("Headroom (%)"), tr("Bottleneck hop"),
                                       tr("Free (Gb/s)"), tr("Reason"), tr("Routed by")});
    const QStringList tips{tr("Ranks and hosts as NCCL logged them"),
                           tr("Share of capacity left on the pair's route, in %: 1 - p95 utilisation of its worst hop, "
                              "weighted over its equal-cost routes"),
                           tr("The hop with the least headroom: transmitting port -> receiving port"),
                           tr("Free capacity of the bottleneck hop, in Gb/s: the ring's bound through this pair"),
                           tr("Why the bottleneck is tight: utilisation, or the finding that names the link"),
                           tr("Forwarding tables (the route the subnet manager programmed) or 1 of N equal-cost routes (a guess)")};
    for (int c = 0; c < tips.size(); ++c) pairs_->horizontalHeaderItem(c)->setToolTip(tips[c]);
    pairs_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    pairs_->setSelectionBehavior(QAbstractItemView::SelectRows);
    pairs_->setSelectionMode(QAbstractItemView::SingleSelection);
    pairs_->verticalHeader()->hide();
    pairs_->horizontalHeader()->setStretchLastSection(true);
    pairs_->setWordWrap(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(jobBox_);
    layout->addWidget(info_);
    layout->addWidget(pairs_, 1);

    connect(jobBox_, &QComboBox::currentIndexChanged, this, &JobPanel::showJob);
    auto activate = [this] {
        if (pairs_->currentRow() >= 0) Q_EMIT pairActivated(currentFocus());
    };
    connect(pairs_, &QTableWidget::cellClicked, this, activate);
    connect(pairs_, &QTableWidget::cellActivated, this, activate);
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

FindingFocus JobPanel::currentFocus() const {
    const int job = jobBox_->currentIndex();
    if (!snapshot_ || !report_ || job < 0 || job >= static_cast<int>(report_->jobs.size())) return {};
    return focusOfJob(*snapshot_, report_->jobs[static_cast<std::size_t>(job)],
                      static_cast<std::size_t>(std::max(0, pairs_->currentRow())));
}

} // namespace fabscope
