#include "views/diagnostics_panel.h"

#include <QBrush>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace fabscope {

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiagnosticsModel::setDiagnostics(std::vector<Diagnostic> list) {
    beginResetModel();
    list_ = std::move(list);
    endResetModel();
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(list_.size()); }
int DiagnosticsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Diagnostic& d = list_[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Location:
            return d.line > 0 ? QStringLiteral("%1:%2").arg(QString::fromStdString(d.file)).arg(d.line) : QString::fromStdString(d.file);
        case Severity:
            return d.severity == fabscope::Severity::Error ? tr("error") : d.severity == fabscope::Severity::Warning ? tr("warning") : tr("info");
        case Message: return QString::fromStdString(d.message);
        default: break;
        }
    }
    if (role == Qt::ForegroundRole && index.column() == Severity && d.severity == fabscope::Severity::Error) return QBrush(QColor(180, 20, 20));
    return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Location: return tr("File:line");
    case Severity: return tr("Severity");
    case Message: return tr("Message");
    default: return {};
    }
}

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("diagnosticsPanel"));
    setAccessibleName(tr("Import diagnostics"));
    model_ = new DiagnosticsModel(this);
    headline_ = new QLabel(tr("No import yet in this session."), this);
    headline_->setObjectName(QStringLiteral("diagnosticsHeadline"));
    headline_->setAccessibleName(tr("Last import result"));
    headline_->setWordWrap(true);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("diagnosticsTable"));
    table_->setAccessibleName(tr("Import diagnostics list"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(headline_);
    layout->addWidget(table_, 1);
}

void DiagnosticsPanel::setDiagnostics(const QString& headline, std::vector<Diagnostic> list) {
    headline_->setText(headline);
    model_->setDiagnostics(std::move(list));
    table_->resizeColumnToContents(DiagnosticsModel::Location);
    table_->resizeColumnToContents(DiagnosticsModel::Severity);
}

} // namespace fabscope
