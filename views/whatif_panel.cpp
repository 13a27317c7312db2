#include "views/whatif_panel.h"

#include "core/store/store.h"
#include "views/background_job.h"
#include "views/job_progress.h"
#include "views/mode_dock.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

namespace fabscope {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString end(const PortRef& p) {
    const bool numeric = !p.port.empty() && p.port.find_first_not_of("0123456789") == std::string::npos;
    return qs((p.node.empty() ? p.guid : p.node) + (numeric ? " p" : " ") + p.port);
}

QString percent(double util) { return QObject::tr("%1 %").arg(util * 100, 0, 'f', 1); }

QTableWidget* makeTable(QWidget* parent, const QString& name, const QString& accessible, const QStringList& headers, const QStringList& tips) {
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    setupResultTable(t, name, accessible);
    t->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < headers.size(); ++c) t->horizontalHeaderItem(c)->setToolTip(tips[c]);
    return t;
}

QTableWidgetItem* cell(const QString& text, bool right = false) {
    auto* i = new QTableWidgetItem(text);
    if (right) i->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return i;
}

} // namespace

WhatIfPanel::WhatIfPanel(QWidget* parent) : QWidget(parent), job_(new BackgroundJob(QStringLiteral("whatIfJob"), this)) {
    setObjectName(QStringLiteral("whatIfPanel"));
    progress_ = new JobProgress(job_, this, QStringLiteral("whatIfProgress"), tr("What if"));
    connect(progress_, &JobProgress::cancelled, this, &WhatIfPanel::cancelRun);
    setAccessibleName(tr("Prediction: what if a link or switch fails"));
    const ModeControls mode = makeModeControls(
        this, {QStringLiteral("whatIfBanner"), QStringLiteral("leavePredictionButton"), QStringLiteral("backToPredictionButton"),
               tr("Leave prediction"), tr("Leave the prediction"), tr("Back to the metric's colours (Esc); Back to prediction shows it again"),
               tr("Back to prediction"), tr("Back to the prediction"),
               tr("The last prediction again (Ctrl+Z in the fabric, Ctrl+Shift+Z anywhere)")});
    banner_ = mode.banner;
    leave_ = mode.leave;
    back_ = mode.back;
    connect(leave_, &QPushButton::clicked, this, &WhatIfPanel::leave);
    connect(back_, &QPushButton::clicked, this, &WhatIfPanel::back);

    links_ = makeTable(this, QStringLiteral("whatIfLinksTable"), tr("Links the change touches, those turning hot first"),
                       {tr("Link (tx → rx)"), tr("p95 before → after"), tr("Δ"), tr("Hot")},
                       {tr("The link direction: transmitting end first"), tr("Predicted p95 utilisation of the window, in % of capacity"),
                        tr("After − before, in percentage points"), tr("Turns hot: at or above the hot-link threshold after, below it before")});
    jobs_ = makeTable(this, QStringLiteral("whatIfJobsTable"), tr("Predicted impact on each job"),
                      {tr("Job"), tr("Ranks"), tr("Slowdown"), tr("GPU-hours at risk"), tr("Worst link p95 before → after")},
                      {tr("The job"), tr("Its ranks (GPUs)"), tr("Predicted slowdown: worst p95 after over before, at least 1 (x)"),
                       tr("(slowdown − 1) × ranks × window hours (GPU h)"), tr("The highest p95 utilisation on the job's routes")});
    connect(links_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (!active_ || !result_ || row < 0 || row >= static_cast<int>(result_->report.links.size())) return;
        Q_EMIT linkActivated(result_->report.links[static_cast<std::size_t>(row)].ports);
    });
    connect(links_, &QTableWidget::cellClicked, this, [this](int row) {
        if (active_ && result_ && row >= 0 && row < static_cast<int>(result_->report.links.size()))
            Q_EMIT linkActivated(result_->report.links[static_cast<std::size_t>(row)].ports);
    });
    hosts_ = new QLabel(this);
    hosts_->setObjectName(QStringLiteral("whatIfHosts"));
    hosts_->setWordWrap(true);
    hosts_->setTextFormat(Qt::PlainText);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("whatIfStatus"));
    status_->setWordWrap(true);

    QVBoxLayout* layout = modeLayout(this, mode);
    layout->addWidget(links_, 3);
    layout->addWidget(hosts_);
    layout->addWidget(jobs_, 1);
    layout->addWidget(status_);
    updateState();
}

WhatIfPanel::~WhatIfPanel() = default;

void WhatIfPanel::run(const WhatIfRequest& request, const AnalysisConfig& config) {
    status_->setText(tr("Predicting %1…").arg(request.what));
    const int generation = job_->run(
        [request, config](const JobToken& token) {
            const Store store(request.store, Store::Mode::ReadOnly);
            if (token.cancelled()) throw std::runtime_error("what-if cancelled");
            auto r = std::make_shared<WhatIfResult>();
            r->report = whatIf(store, request.from, request.to, request.changes, config);
            r->what = request.what;
            if (token.cancelled()) throw std::runtime_error("what-if cancelled");
            return std::shared_ptr<const WhatIfResult>(std::move(r));
        },
        [this](std::shared_ptr<const WhatIfResult> r) {
            progress_->close();
            const QString what = r->what;
            show(std::move(r));
            Q_EMIT finished(true, tr("Prediction: %1").arg(what));
        },
        [this](const QString& error) {
            progress_->close();
            status_->setText(tr("What-if failed: %1").arg(error));
            Q_EMIT finished(false, tr("What-if failed: %1").arg(error));
        });
    progress_->showWhile(generation, tr("Predicting %1…").arg(request.what));
}

// The core takes no cancel flag: the run is told to stop and its result will not be shown.
void WhatIfPanel::cancelRun() {
    job_->cancel();
    job_->drop();
    progress_->close();
    status_->setText(tr("Prediction cancelled."));
    Q_EMIT finished(false, tr("Prediction cancelled"));
}

void WhatIfPanel::show(std::shared_ptr<const WhatIfResult> result) {
    result_ = std::move(result);
    fill();
    active_ = true;
    updateState();
    Q_EMIT entered(result_);
}

void WhatIfPanel::fill() {
    const QSignalBlocker block(links_);
    links_->setRowCount(0);
    jobs_->setRowCount(0);
    hosts_->clear();
    if (!result_) return;
    const WhatIfReport& r = result_->report;
    links_->setRowCount(static_cast<int>(r.links.size()));
    for (int row = 0; row < links_->rowCount(); ++row) {
        const WhatIfLink& l = r.links[static_cast<std::size_t>(row)];
        QStringList ends;
        for (const PortRef& p : l.ports) ends << end(p);
        links_->setItem(row, Link, cell(ends.join(QStringLiteral(" → "))));
        const QString after = l.failed ? tr("fails") : percent(l.after.p95Util());
        links_->setItem(row, Utilisation, cell(tr("%1 → %2").arg(percent(l.before.p95Util()), after), true));
        links_->setItem(row, Delta, cell(l.failed ? QStringLiteral("—") : CompareColouring::format(static_cast<float>((l.after.p95Util() - l.before.p95Util()) * 100)), true));
        links_->setItem(row, Hot, cell(l.turnsHot ? tr("turns hot") : QString()));
    }
    jobs_->setRowCount(static_cast<int>(r.jobs.size()));
    for (int row = 0; row < jobs_->rowCount(); ++row) {
        const JobImpact& j = r.jobs[static_cast<std::size_t>(row)];
        jobs_->setItem(row, Job, cell(qs(j.name)));
        jobs_->setItem(row, Ranks, cell(QString::number(j.ranks), true));
        jobs_->setItem(row, Slowdown, cell(j.disconnected ? tr("cut off") : tr("%1 x").arg(j.slowdown, 0, 'f', 2), true));
        const double h = j.gpuHoursAtRisk;  // three significant digits, whole hours from 100 up
        jobs_->setItem(row, GpuHours, cell(tr("%1 GPU h").arg(h >= 100 ? QString::number(h, 'f', 0) : QString::number(h, 'g', 3)), true));
        jobs_->setItem(row, Worst, cell(tr("%1 → %2").arg(percent(j.worstBefore), percent(j.worstAfter)), true));
    }
    QStringList hosts;
    for (const auto& h : r.disconnected) hosts << qs(h);
    hosts_->setText(hosts.isEmpty() ? tr("Hosts cut off: none") : tr("Hosts cut off (%1): %2").arg(hosts.size()).arg(hosts.join(QStringLiteral(", "))));
    links_->resizeColumnsToContents();
    jobs_->resizeColumnsToContents();
}

void WhatIfPanel::leave() {
    if (!active_) return;
    active_ = false;
    updateState();
    Q_EMIT left();
}

void WhatIfPanel::back() {
    if (active_ || !result_) return;
    active_ = true;
    updateState();
    Q_EMIT entered(result_);
}

void WhatIfPanel::clear() {
    const bool had = active_ || result_;
    job_->drop();
    progress_->close();
    result_.reset();
    active_ = false;
    fill();
    updateState();
    if (had) Q_EMIT left();
}

QString WhatIfPanel::banner() const { return banner_->text(); }
QString WhatIfPanel::hostsText() const { return hosts_->text(); }

void WhatIfPanel::updateState() {
    if (active_ && result_)
        banner_->setText(tr("%1. A prediction from the window's measured p95 load moved onto the equal-cost alternatives, not a measurement.")
                             .arg(whatIfTitle(*result_)));
    else if (result_) banner_->setText(tr("Prediction left: Back to prediction (Ctrl+Z in the fabric) shows it again."));
    else banner_->setText(tr("No prediction. Right-click a link or a switch in the fabric: What if this fails?"));
    showModeState({banner_, leave_, back_}, active_, result_ != nullptr);
    links_->setEnabled(active_);
    jobs_->setEnabled(active_);
    if (result_) {
        const auto hot = std::count_if(result_->report.links.begin(), result_->report.links.end(), [](const WhatIfLink& l) { return l.turnsHot; });
        status_->setText(tr("%1 link direction(s) touched, %2 turning hot; click one to select and frame it")
                             .arg(result_->report.links.size())
                             .arg(hot));
    } else if (!job_->busy()) status_->setText({});
}

} // namespace fabscope
