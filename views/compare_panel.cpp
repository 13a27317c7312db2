#include "views/compare_panel.h"

#include "views/background_job.h"
#include "views/job_progress.h"
#include "views/mode_dock.h"
#include "views/store_snapshot.h"

#include <QAbstractTableModel>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace fabscope {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

std::optional<double> number(const ChangeValues& values, std::string_view key) {
    for (const auto& [k, v] : values)
        if (k == key && std::holds_alternative<double>(v)) return std::get<double>(v);
    return std::nullopt;
}

// One side of a change in a cell: p95 utilisation for load, "no data", else its first values.
QString sideText(const ChangeValues& values) {
    if (values.empty()) return QStringLiteral("—");
    for (const auto& [k, v] : values)
        if (k == "data" && std::holds_alternative<std::string>(v) && std::get<std::string>(v) == "none") return QObject::tr("no data");
    if (const auto p95 = number(values, "p95_util")) {
        QString s = QObject::tr("p95 %1 %").arg(*p95 * 100, 0, 'f', 1);
        if (const auto hot = number(values, "hot_seconds"); hot && *hot > 0) s += QObject::tr(", hot %1 s").arg(*hot, 0, 'g', 4);
        return s;
    }
    QStringList parts;
    for (const auto& [k, v] : values) {
        if (parts.size() == 3) break;
        const QString value = std::holds_alternative<double>(v) ? QString::number(std::get<double>(v), 'g', 4) : qs(std::get<std::string>(v));
        const QString key = qs(k);
        if (key.endsWith(QLatin1String("_gbps"))) parts << QObject::tr("%1 Gb/s").arg(value);  // the unit is in the key's name
        else if (values.size() == 1 || key == QLatin1String("link") || key == QLatin1String("width_speed") || key == QLatin1String("peer"))
            parts << value;
        else parts << QString(key).replace(QLatin1Char('_'), QLatin1Char(' ')) + QLatin1Char(' ') + value;
    }
    return parts.join(QStringLiteral(", "));
}

QString whereText(const Change& c) {
    QStringList ends;
    for (const PortRef& p : c.ports) {
        const bool numeric = !p.port.empty() && p.port.find_first_not_of("0123456789") == std::string::npos;
        ends << qs((p.node.empty() ? p.guid : p.node) + (numeric ? " p" : " ") + p.port);
    }
    if (!ends.isEmpty()) return ends.join(QStringLiteral(" → "));
    QStringList hosts;
    for (const auto& h : c.hosts) hosts << qs(h);
    return hosts.isEmpty() ? QStringLiteral("—") : hosts.join(QStringLiteral(", "));
}

} // namespace

// The changes of one report in the core's order (by score); strings are made in data() only.
class ChangesModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setResult(std::shared_ptr<const CompareResult> r) {
        beginResetModel();
        result_ = std::move(r);
        endResetModel();
    }
    [[nodiscard]] const Change* change(int row) const {
        if (!result_ || row < 0 || row >= static_cast<int>(result_->report.changes.size())) return nullptr;
        return &result_->report.changes[static_cast<std::size_t>(row)];
    }
    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() || !result_ ? 0 : static_cast<int>(result_->report.changes.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ComparePanel::ColumnCount; }
    QVariant data(const QModelIndex& index, int role) const override {
        const Change* c = change(index.row());
        if (!c) return {};
        if (role == Qt::ToolTipRole) return qs(c->summary);
        if (role == Qt::TextAlignmentRole && (index.column() == ComparePanel::Rank || index.column() == ComparePanel::Score))
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        if (role != Qt::DisplayRole && role != Qt::AccessibleTextRole) return {};
        switch (index.column()) {
        case ComparePanel::Rank: return index.row() + 1;
        case ComparePanel::Kind: return QString::fromUtf8(toString(c->kind).data(), static_cast<qsizetype>(toString(c->kind).size()));
        case ComparePanel::Where: return whereText(*c);
        case ComparePanel::Good: return sideText(c->good);
        case ComparePanel::Bad: return sideText(c->bad);
        case ComparePanel::Score: return QString::number(c->score, 'f', 0);
        default: return {};
        }
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if (o != Qt::Horizontal) return {};
        static const char* const names[] = {"#", "Kind", "Where", "Good", "Bad", "Score"};
        static const char* const tips[] = {"Rank by likely impact on a job", "What changed", "The link (transmitting end first) or hosts",
                                           "The good run's value, with its unit", "The bad run's value, with its unit",
                                           "Likely impact on a job, 0..100"};
        if (role == Qt::DisplayRole) return QObject::tr(names[section]);
        if (role == Qt::ToolTipRole) return QObject::tr(tips[section]);
        return {};
    }

private:
    std::shared_ptr<const CompareResult> result_;
};

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent), job_(new BackgroundJob(QStringLiteral("compareJob"), this)), model_(new ChangesModel(this)) {
    setObjectName(QStringLiteral("comparePanel"));
    progress_ = new JobProgress(job_, this, QStringLiteral("compareProgress"), tr("Compare"));
    connect(progress_, &JobProgress::cancelled, job_, &BackgroundJob::cancel);
    setAccessibleName(tr("Changes between a good and a bad run"));
    const ModeControls mode = makeModeControls(
        this, {QStringLiteral("compareBanner"), QStringLiteral("leaveCompareButton"), QStringLiteral("backToCompareButton"),
               tr("Leave compare"), tr("Leave compare mode"), tr("Back to the normal colouring (Esc); Back to compare shows this comparison again"),
               tr("Back to compare"), tr("Back to compare mode"), tr("Compare mode again with the last comparison (Ctrl+Shift+B)")});
    banner_ = mode.banner;
    leave_ = mode.leave;
    back_ = mode.back;
    connect(leave_, &QPushButton::clicked, this, &ComparePanel::leave);
    connect(back_, &QPushButton::clicked, this, &ComparePanel::back);

    table_ = new QTableView(this);
    setupResultTable(table_, QStringLiteral("changesTable"), tr("Changes, by likely impact"));
    table_->setModel(model_);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& i) { emitRow(i); });
    connect(table_, &QTableView::activated, this, &ComparePanel::emitRow);
    connect(table_, &QTableView::clicked, this, &ComparePanel::emitRow);

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("compareStatus"));
    QVBoxLayout* layout = modeLayout(this, mode);
    layout->addWidget(table_, 1);
    layout->addWidget(status_);

    connect(job_, &BackgroundJob::cancelled, this, [this] {
        progress_->close();
        status_->setText(tr("Compare cancelled."));
        Q_EMIT finished(false, tr("Compare cancelled"));
    });
    updateState();
}

ComparePanel::~ComparePanel() = default;

const Change* ComparePanel::change(int row) const { return model_->change(row); }

void ComparePanel::run(const CompareRequest& request, const AnalysisConfig& config, std::shared_ptr<const StoreSnapshot> shown) {
    status_->setText(tr("Comparing…"));
    const int generation = job_->run(
        [request, config, shown](const JobToken& token) {
            auto r = std::make_shared<CompareResult>();
            r->request = request;
            const bool one = request.goodStore == request.badStore;
            // One store, two windows: one connection, so the core knows both sides are the same store.
            Store good(request.goodStore, Store::Mode::ReadOnly);
            std::optional<Store> bad;
            if (!one) bad.emplace(request.badStore, Store::Mode::ReadOnly);
            r->report = compareRuns(good, request.goodStore, request.goodWindow, one ? good : *bad, request.badStore, request.badWindow,
                                    config, token.flag());
            auto snapshotOf = [&](const std::string& path) -> std::shared_ptr<const StoreSnapshot> {
                if (shown && shown->path == path && (!shown->rates.empty() || shown->snapshotId == 0)) return shown;
                return loadStoreSnapshot(path, token.flag(), config);
            };
            r->good = snapshotOf(request.goodStore);
            r->bad = one ? r->good : snapshotOf(request.badStore);
            r->shownIsBad = !shown || request.badStore == shown->path;
            if (token.cancelled()) throw std::runtime_error("compare cancelled");
            return std::shared_ptr<const CompareResult>(std::move(r));
        },
        [this](std::shared_ptr<const CompareResult> r) {
            progress_->close();
            const auto n = static_cast<int>(r->report.changes.size());
            show(std::move(r));
            Q_EMIT finished(true, tr("%n change(s) between the good and the bad run", nullptr, n));
        },
        [this](const QString& error) {
            progress_->close();
            status_->setText(tr("Compare failed: %1").arg(error));
            Q_EMIT finished(false, tr("Compare failed: %1").arg(error));
        });
    progress_->showWhile(generation, tr("Comparing the good run with the bad one…"));
}

void ComparePanel::show(std::shared_ptr<const CompareResult> result) {
    result_ = std::move(result);
    model_->setResult(result_);
    table_->resizeColumnsToContents();
    for (int c : {Where, Good, Bad})  // a job's long values stay in the tooltip, the score on screen
        table_->setColumnWidth(c, std::min(table_->columnWidth(c), 190));
    active_ = true;
    updateState();
    Q_EMIT entered(result_);
}

void ComparePanel::leave() {
    if (!active_) return;
    active_ = false;
    updateState();
    Q_EMIT left();
}

void ComparePanel::back() {
    if (active_ || !result_) return;
    active_ = true;
    updateState();
    Q_EMIT entered(result_);
}

void ComparePanel::clear() {
    const bool had = active_ || result_;
    job_->drop();
    progress_->close();
    result_.reset();
    active_ = false;
    model_->setResult(nullptr);
    updateState();
    if (had) Q_EMIT left();
}

QString ComparePanel::banner() const { return banner_->text(); }

void ComparePanel::updateState() {
    if (active_ && result_) banner_->setText(compareTitle(result_->report));
    else if (result_) banner_->setText(tr("Compare mode left: Back to compare (Ctrl+Shift+B) shows this comparison again."));
    else banner_->setText(tr("No comparison. File > Compare… (Ctrl+Shift+C) compares the open store with another run."));
    showModeState({banner_, leave_, back_}, active_, result_ != nullptr);
    table_->setEnabled(active_);
    if (result_)
        status_->setText(tr("%n change(s), by likely impact; click one to select and frame it", nullptr,
                            static_cast<int>(result_->report.changes.size())));
    else if (!job_->busy()) status_->setText({});
}

void ComparePanel::emitRow(const QModelIndex& index) {
    if (!active_ || !index.isValid()) return;
    if (const Change* c = model_->change(index.row())) Q_EMIT changeActivated(*c);
}

} // namespace fabscope
