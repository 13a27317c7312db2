#include "views/job_panel.h"

#include "core/analysis/findings.h"
#include "views/job_tables.h"
#include "views/store_snapshot.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <tuple>

namespace fabscope {
namespace {

QString percent(double share) { return QString::number(share * 100, 'f', 1); }

// A read-only table of whole rows over `proxy`, one row chosen at a time, sorted by a click on a
// column's header; `natural`: the column the rows come sorted by (ascending).
QTableView* rowTable(QWidget* parent, const QString& name, const QString& accessible, JobTableProxy* proxy, int natural) {
    auto* t = new QTableView(parent);
    t->setObjectName(name);
    t->setAccessibleName(accessible);
    t->setModel(proxy);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    // Columns sized from the rows on screen and 100 more, not 1,000: laying out each cell's
    // text was most of a job's first showing.
    t->horizontalHeader()->setResizeContentsPrecision(100);
    t->horizontalHeader()->setSortIndicator(natural, Qt::AscendingOrder);
    t->setSortingEnabled(true);
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
    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("jobFilter"));
    filter_->setAccessibleName(tr("Filter pairs and ranks"));
    filter_->setPlaceholderText(tr("Filter by host, switch, reason or rank number…"));
    filter_->setToolTip(tr("Keeps the pairs and ranks whose host, adapter, switch or reason contains the text (any case), "
                           "or that have the rank numbered so; click a column's header to sort by it"));
    filter_->setClearButtonEnabled(true);

    pairsModel_ = new JobPairsModel(this);
    ranksModel_ = new JobRanksModel(this);
    pairsProxy_ = new JobTableProxy(this);
    ranksProxy_ = new JobTableProxy(this);
    pairsProxy_->setSourceModel(pairsModel_);
    ranksProxy_->setSourceModel(ranksModel_);
    pairs_ = rowTable(this, QStringLiteral("jobPairs"), tr("Job pairs by headroom"), pairsProxy_, JobPairsModel::Headroom);
    ranks_ = rowTable(this, QStringLiteral("jobRanks"), tr("Job ranks and where they run"), ranksProxy_, JobRanksModel::Rank);

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
    layout->addWidget(filter_);
    layout->addWidget(tabs_, 1);

    connect(jobBox_, &QComboBox::currentIndexChanged, this, &JobPanel::showJob);
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        pairsProxy_->setFilterText(text);
        ranksProxy_->setFilterText(text);
        showCounts();
    });
    auto activate = [this](const QModelIndex& index) {
        if (index.isValid()) Q_EMIT pairActivated(currentFocus());
    };
    connect(pairs_, &QTableView::clicked, this, activate);
    connect(pairs_, &QTableView::activated, this, activate);
    connect(ranks_, &QTableView::clicked, this, &JobPanel::activateRank);
    connect(ranks_, &QTableView::activated, this, &JobPanel::activateRank);
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

const JobRoutes* JobPanel::currentJob() const {
    const int job = jobBox_->currentIndex();
    return report_ && job >= 0 && job < static_cast<int>(report_->jobs.size()) ? &report_->jobs[static_cast<std::size_t>(job)] : nullptr;
}

void JobPanel::showJob(int index) {
    // In the analysis' order, which needs no sort (pairs worst headroom first, ranks by number),
    // unless the user sorted by another column: that sort is kept, for the new rows. The proxies
    // drop their sort before the rows change, so that the change is not sorted without keys.
    const std::tuple<QTableView*, JobTableProxy*, int> tables[] = {{pairs_, pairsProxy_, int(JobPairsModel::Headroom)},
                                                                   {ranks_, ranksProxy_, int(JobRanksModel::Rank)}};
    for (const auto& [view, proxy, natural] : tables) proxy->sort(-1);
    pairsModel_->setJob(report_, index);
    ranksModel_->setJob(report_, index);
    for (const auto& [view, proxy, natural] : tables) {
        const QHeaderView* header = view->horizontalHeader();
        if (header->sortIndicatorSection() != natural || header->sortIndicatorOrder() != Qt::AscendingOrder)
            proxy->sort(header->sortIndicatorSection(), header->sortIndicatorOrder());
    }
    showCounts();
    const JobRoutes* j = currentJob();
    if (!j) {
        info_->setText(report_ ? tr("No jobs in this store: import an NCCL log (NCCL_DEBUG=INFO) or a job CSV.") : tr("No analysis yet."));
        return;
    }
    QString text = tr("%1 host(s), %2 ring channel(s), %3 tree channel(s)").arg(j->hosts.size()).arg(j->ringChannels).arg(j->treeChannels);
    if (!j->ncclVersion.empty()) text += tr("; NCCL %1").arg(QString::fromStdString(j->ncclVersion));
    if (j->ranksUnplaced) text += tr("; %1 rank(s) not on the fabric").arg(j->ranksUnplaced);
    if (j->pairs.empty()) {
        text += tr(". No pair could be routed.");
    } else {
        text += tr(". %1 pair(s) scored, median headroom %2 %.").arg(j->pairs.size()).arg(percent(j->medianHeadroom));
        text += j->stragglerFinding.empty()
                    ? tr(" No straggler path: no pair stands out against the others.")
                    : tr(" Straggler path (%1): the first pair; its route is drawn in blue, hop by hop.")
                          .arg(QString::fromStdString(j->stragglerFinding));
    }
    info_->setText(text);
    pairs_->resizeColumnsToContents();
    ranks_->resizeColumnsToContents();
}

// The tabs' titles count the rows, and the rows the filter keeps ("Ranks (2 of 5, 1 off the fabric)").
void JobPanel::showCounts() {
    const JobRoutes* j = currentJob();
    const std::size_t pairs = j ? j->pairs.size() : 0, ranks = j ? j->rankPlaces.size() : 0;
    const bool filtered = !filter_->text().trimmed().isEmpty();
    auto count = [filtered](const JobTableProxy* proxy, std::size_t all) {
        return filtered ? tr("%1 of %2").arg(proxy->rowCount()).arg(all) : QString::number(all);
    };
    tabs_->setTabText(0, j ? tr("Pairs (%1)").arg(count(pairsProxy_, pairs)) : tr("Pairs"));
    tabs_->setTabText(1, !j                  ? tr("Ranks")
                         : j->ranksUnplaced ? tr("Ranks (%1, %2 off the fabric)").arg(count(ranksProxy_, ranks)).arg(j->ranksUnplaced)
                                            : tr("Ranks (%1)").arg(count(ranksProxy_, ranks)));
}

void JobPanel::activateRank(const QModelIndex& proxyIndex) {
    const JobRoutes* j = currentJob();
    if (!snapshot_ || !j || !proxyIndex.isValid()) return;
    Q_EMIT rankActivated(focusOfRank(*snapshot_, *j, static_cast<std::size_t>(ranksProxy_->mapToSource(proxyIndex).row())));
}

FindingFocus JobPanel::currentFocus() const {
    const JobRoutes* j = currentJob();
    if (!snapshot_ || !j) return {};
    const QModelIndex current = pairsProxy_->mapToSource(pairs_->currentIndex());
    return focusOfJob(*snapshot_, *j, static_cast<std::size_t>(std::max(0, current.row())));
}

} // namespace fabscope
