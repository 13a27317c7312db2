#include "views/findings_panel.h"

#include "core/analysis/findings.h"
#include "views/findings_model.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

#include <optional>
#include <utility>
#include <vector>

namespace fabscope {

FindingsPanel::FindingsPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("findingsPanel"));
    setAccessibleName(tr("Findings"));
    model_ = new FindingsModel(this);
    proxy_ = new FindingsProxy(this);
    proxy_->setSourceModel(model_);

    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("findingsFilter"));
    filter_->setAccessibleName(tr("Filter findings"));
    filter_->setPlaceholderText(tr("Filter by kind, severity or text…"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &FindingsProxy::setFilterText);

    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("findingsTable"));
    table_->setAccessibleName(tr("Findings table"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(FindingsModel::Incident, Qt::AscendingOrder);  // by incident, the cause first
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    // Dense rows, as in a log viewer: one text line each, so a short dock still lists ten.
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { emitCurrent(current); });
    connect(table_, &QTableView::activated, this, &FindingsPanel::emitCurrent);
    connect(table_, &QTableView::clicked, this, &FindingsPanel::emitCurrent);

    status_ = new QLabel(tr("No store open."), this);
    status_->setObjectName(QStringLiteral("findingsStatus"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(filter_);
    layout->addWidget(table_);
    layout->addWidget(status_);
}

void FindingsPanel::setReport(std::shared_ptr<const FindingsReport> report) {
    // The finding the user selected, found again by kind and ports (its id and summary change with
    // the window), is selected again: without moving the cursor or the view, which the user may
    // have moved since.
    std::optional<std::pair<FindingKind, std::vector<PortRef>>> kept;
    if (const QModelIndex current = table_->selectionModel()->currentIndex(); current.isValid())
        if (const Finding* f = model_->finding(proxy_->mapToSource(current).row())) kept.emplace(f->kind, f->ports);
    model_->setReport(report);
    for (int row = 0; kept && row < model_->rowCount(); ++row) {
        const Finding* f = model_->finding(row);
        if (f->kind != kept->first || f->ports != kept->second) continue;
        const QModelIndex shown = proxy_->mapFromSource(model_->index(row, 0));
        restoring_ = true;
        table_->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        restoring_ = false;
        table_->scrollTo(shown);
        break;
    }
    table_->resizeColumnsToContents();
    if (report)
        status_->setText(tr("%n finding(s) in the analysis window", nullptr, static_cast<int>(report->findings.size())));
    else
        status_->setText(tr("No analysis."));
}

void FindingsPanel::setBusy(const QString& message) { status_->setText(message); }

void FindingsPanel::emitCurrent(const QModelIndex& proxyIndex) {
    if (!proxyIndex.isValid() || restoring_) return;
    if (const Finding* f = model_->finding(proxy_->mapToSource(proxyIndex).row())) Q_EMIT findingActivated(*f);
}

} // namespace fabscope
