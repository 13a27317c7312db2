#include "views/findings_model.h"
#include "views/utc_text.h"

#include "core/analysis/findings.h"

#include <QBrush>
#include <QColor>

namespace fabscope {
namespace {

QBrush severityBrush(FindingSeverity s) {
    return QBrush(s == FindingSeverity::Critical ? QColor(190, 20, 30) : s == FindingSeverity::Warning ? QColor(190, 110, 0) : QColor(60, 60, 60));
}

} // namespace

FindingsModel::FindingsModel(QObject* parent) : QAbstractTableModel(parent) { setObjectName(QStringLiteral("findingsModel")); }
FindingsModel::~FindingsModel() = default;

void FindingsModel::setReport(std::shared_ptr<const FindingsReport> report) {
    beginResetModel();
    report_ = std::move(report);
    position_.assign(report_ ? report_->findings.size() : 0, 0);
    if (report_)
        for (const auto& inc : report_->incidents)
            for (std::size_t i = 0; i < inc.members.size(); ++i)
                if (inc.members[i] < position_.size()) position_[inc.members[i]] = static_cast<int>(i);
    endResetModel();
}

const Finding* FindingsModel::finding(int row) const {
    if (!report_ || row < 0 || row >= static_cast<int>(report_->findings.size())) return nullptr;
    return &report_->findings[static_cast<std::size_t>(row)];
}

int FindingsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !report_ ? 0 : static_cast<int>(report_->findings.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant FindingsModel::data(const QModelIndex& index, int role) const {
    const Finding* f = index.isValid() ? finding(index.row()) : nullptr;
    if (!f) return {};
    const auto column = static_cast<Column>(index.column());
    if (column == Incident) return incidentData(*f, index.row(), role);
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Severity: return QString::fromUtf8(toString(f->severity).data());
        case Kind: return QString::fromLatin1(kindName(f->kind).data(), static_cast<qsizetype>(kindName(f->kind).size()));
        case Start:
            return utcText(f->start);
        case Duration: return tr("%1 s").arg(f->end - f->start);
        case Summary: return QString::fromStdString(f->summary);
        case Incident:
        case ColumnCount: break;
        }
        break;
    case Qt::ToolTipRole:
        if (column == Start) return tr("Start of the finding, UTC (UNIX %1 s)").arg(static_cast<qint64>(f->start));
        if (column == Duration) return tr("From start to end, in seconds");
        if (column == Kind) {  // what the kind means (Help > Finding kinds has the rule with its thresholds)
            const auto& info = kindInfo(f->kind);
            return QString::fromLatin1(info.name.data(), static_cast<qsizetype>(info.name.size())) + QStringLiteral(": ") +
                   QString::fromUtf8(info.meaning.data(), static_cast<qsizetype>(info.meaning.size()));
        }
        return QString::fromStdString(f->id + ": " + f->summary);
    case Qt::ForegroundRole:
        if (column == Severity) return severityBrush(f->severity);
        break;
    case SortRole:
        switch (column) {
        case Severity: return static_cast<int>(f->severity);
        case Start: return f->start;
        case Duration: return f->end - f->start;
        default: return data(index, Qt::DisplayRole);
        }
    case StartTimeRole: return f->start;
    default: break;
    }
    return {};
}

QVariant FindingsModel::incidentData(const Finding& f, int row, int role) const {
    const auto& incidents = report_->incidents;
    const fabscope::Incident* inc =
        f.incident >= 1 && f.incident <= static_cast<int>(incidents.size()) ? &incidents[static_cast<std::size_t>(f.incident - 1)] : nullptr;
    const int position = position_[static_cast<std::size_t>(row)];
    switch (role) {
    case Qt::DisplayRole:
        if (!inc) return {};
        if (position > 0) return tr("\u21b3 #%1").arg(inc->id);
        return tr("#%1 %2").arg(inc->id).arg(QString::fromUtf8(toString(inc->severity).data()));
    case Qt::ToolTipRole: {
        if (!inc) return {};
        const Finding& cause = report_->findings[inc->members.front()];
        QString tip = tr("Incident %1 (%2): %n finding(s), caused by %3", nullptr, static_cast<int>(inc->members.size()))
                          .arg(inc->id)
                          .arg(QString::fromUtf8(toString(inc->severity).data()), QString::fromStdString(cause.id));
        return position > 0 ? tip + tr("; this finding follows from it") : tip;
    }
    case Qt::ForegroundRole:
        if (inc && position == 0) return severityBrush(inc->severity);
        return {};
    case SortRole:  // incident by incident, the cause first (rows without one keep their order)
        return static_cast<qint64>(inc ? inc->id : 0) * 1000000 + (inc ? position : row);
    case StartTimeRole: return f.start;
    default: return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Incident: return tr("Incident");
        case Severity: return tr("Severity");
        case Kind: return tr("Kind");
        case Start: return tr("Start (UTC)");
        case Duration: return tr("Duration");
        case Summary: return tr("Summary");
        default: break;
        }
    }
    return {};
}

FindingsProxy::FindingsProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setObjectName(QStringLiteral("findingsProxy"));
    setSortRole(FindingsModel::SortRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void FindingsProxy::setFilterText(const QString& text) {
    if (text == text_) return;
    text_ = text;
    invalidateFilter();
}

bool FindingsProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QString& text = text_;
    if (text.isEmpty()) return true;
    for (int c : {FindingsModel::Severity, FindingsModel::Kind, FindingsModel::Summary}) {
        const QString v = sourceModel()->index(sourceRow, c, sourceParent).data().toString();
        if (v.contains(text, Qt::CaseInsensitive)) return true;
    }
    return false;
}

} // namespace fabscope
