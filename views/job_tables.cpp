#include "views/job_tables.h"

#include "core/analysis/findings.h"

#include <QColor>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace fabscope {
namespace {

QString port(const PortRef& p) { return QString::fromStdString(p.node + " p" + p.port); }
QString percent(double share) { return QString::number(share * 100, 'f', 1); }
const QColor kAlarm(180, 30, 30);
constexpr double kUnknownLast = std::numeric_limits<double>::infinity();  // sorts after every share

QVariant rightAligned() { return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter)); }

// `lowerText` within `s`, ASCII case ignored: hosts and switches are named in ASCII.
bool containsNoCase(std::string_view s, std::string_view lowerText) {
    if (lowerText.size() > s.size()) return false;
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return std::search(s.begin(), s.end(), lowerText.begin(), lowerText.end(), [&](char a, char b) { return lower(a) == b; }) != s.end();
}

} // namespace

void JobTableModel::setJob(std::shared_ptr<const FindingsReport> report, int index) {
    beginResetModel();
    report_ = std::move(report);
    job_ = report_ && index >= 0 && index < static_cast<int>(report_->jobs.size()) ? &report_->jobs[static_cast<std::size_t>(index)] : nullptr;
    endResetModel();
}

int JobTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() || !job_ ? 0 : rows(*job_); }

int JobTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : columns(); }

QVariant JobTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0) return {};
    if (role == Qt::DisplayRole && section < headers().size()) return headers()[section];
    if (role == Qt::ToolTipRole && section < headerTips().size()) return headerTips()[section];
    return {};
}

int JobPairsModel::rows(const JobRoutes& job) const { return static_cast<int>(job.pairs.size()); }

QStringList JobPairsModel::headers() const {
    return {tr("Pair (source -> destination)"), tr("Headroom (%)"), tr("Bottleneck hop"), tr("Free (Gb/s)"), tr("Reason"), tr("Routed by")};
}

QStringList JobPairsModel::headerTips() const {
    return {tr("Ranks and hosts as NCCL logged them"),
            tr("Share of capacity left on the pair's route, in %: 1 - p95 utilisation of its worst hop, "
               "weighted over its equal-cost routes"),
            tr("The hop with the least headroom: transmitting port -> receiving port"),
            tr("Free capacity of the bottleneck hop, in Gb/s: the ring's bound through this pair"),
            tr("Why the bottleneck is tight: utilisation, or the finding that names the link"),
            tr("Forwarding tables (the route the subnet manager programmed) or 1 of N equal-cost routes (a guess)")};
}

QVariant JobPairsModel::data(const QModelIndex& index, int role) const {
    if (!job() || !index.isValid() || index.row() >= rows(*job())) return {};
    const JobPairRoute& p = job()->pairs[static_cast<std::size_t>(index.row())];
    const std::size_t h = 2 * p.bottleneckHop;
    const int c = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (c) {
        case Pair:
            return tr("rank %1 (%2) -> rank %3 (%4)").arg(p.srcRank).arg(QString::fromStdString(p.srcHost)).arg(p.dstRank).arg(QString::fromStdString(p.dstHost));
        case Headroom: return percent(p.headroom);
        case Bottleneck: return h + 1 < p.path.size() ? port(p.path[h]) + QStringLiteral(" -> ") + port(p.path[h + 1]) : QStringLiteral("-");
        case FreeGbps: return QString::number(p.bottleneckGbps, 'f', 1);
        case Reason: return QString::fromStdString(p.reason);
        case RoutedBy: return p.routedBy == "forwarding_tables" ? tr("forwarding tables") : tr("1 of %1 equal-cost routes").arg(p.routes);
        default: return {};
        }
    case SortRole:
        switch (c) {
        case Pair: return (static_cast<qint64>(p.srcRank) << 32) | static_cast<std::uint32_t>(p.dstRank);
        case Headroom: return p.headroom;
        case FreeGbps: return p.bottleneckGbps;
        default: return data(index, Qt::DisplayRole);
        }
    case Qt::TextAlignmentRole: return c == Headroom || c == FreeGbps ? rightAligned() : QVariant();
    case Qt::ForegroundRole:
        return index.row() == 0 && !job()->stragglerFinding.empty() ? QVariant(kAlarm) : QVariant();
    case Qt::ToolTipRole:
        return index.row() == 0 && !job()->stragglerFinding.empty()
                   ? tr("The straggler path (%1): the pair that stands out against the job's others").arg(QString::fromStdString(job()->stragglerFinding))
                   : QVariant();
    default: return {};
    }
}

bool JobPairsModel::rowMatches(int row, std::string_view lowerText, std::optional<int> rank) const {
    if (!job() || row < 0 || row >= rows(*job())) return false;
    const JobPairRoute& p = job()->pairs[static_cast<std::size_t>(row)];
    if (rank && (p.srcRank == *rank || p.dstRank == *rank)) return true;
    if (containsNoCase(p.srcHost, lowerText) || containsNoCase(p.dstHost, lowerText) || containsNoCase(p.reason, lowerText)) return true;
    return std::any_of(p.path.begin(), p.path.end(), [&](const PortRef& hop) { return containsNoCase(hop.node, lowerText); });
}

int JobRanksModel::rows(const JobRoutes& job) const { return static_cast<int>(job.rankPlaces.size()); }

QStringList JobRanksModel::headers() const {
    return {tr("Rank"), tr("Host (adapter)"), tr("Host port"), tr("Switch port"), tr("Median pair headroom (%)"), tr("Named at")};
}

QStringList JobRanksModel::headerTips() const {
    return {tr("The rank's number in the communicator"),
            tr("Host and HCA as the job's file named them (NCCL's log, or the job CSV)"),
            tr("The host adapter's port the analysis placed the rank on, or \"not on the fabric\" when no "
               "adapter of the topology has that host's name"),
            tr("The switch port cabled to the host port: the first hop of every route from this rank"),
            tr("Median headroom of the scored pairs this rank is in, in %: low when every pair through the rank is "
               "tight, which tells the rank behind a bottleneck from its partners"),
            tr("File and line that named the rank's host")};
}

QVariant JobRanksModel::data(const QModelIndex& index, int role) const {
    if (!job() || !index.isValid() || index.row() >= rows(*job())) return {};
    const JobRankPlace& p = job()->rankPlaces[static_cast<std::size_t>(index.row())];
    const int c = index.column();
    const auto host = [&p] {
        return QString::fromStdString(p.host) + (p.device.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(p.device)));
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (c) {
        case Rank: return QString::number(p.rank);
        case Host: return host();
        case HostPort: return p.port ? port(*p.port) : tr("not on the fabric");
        case SwitchPort: return p.switchPort ? port(*p.switchPort) : QStringLiteral("-");
        case MedianHeadroom: return p.medianPairHeadroom ? percent(*p.medianPairHeadroom) : QStringLiteral("-");
        case NamedAt: {
            const std::string& file = job()->file;
            const QString name = QString::fromStdString(file.substr(file.find_last_of('/') + 1));  // npos + 1 = 0: the whole name
            if (p.line <= 0) return name;
            return name.isEmpty() ? tr("line %1").arg(p.line) : QStringLiteral("%1:%2").arg(name).arg(p.line);
        }
        default: return {};
        }
    case SortRole:
        switch (c) {
        case Rank: return p.rank;
        case MedianHeadroom: return p.medianPairHeadroom.value_or(kUnknownLast);
        case NamedAt: return static_cast<qint64>(p.line);
        default: return data(index, Qt::DisplayRole);
        }
    case Qt::TextAlignmentRole: return c == Rank || c == MedianHeadroom ? rightAligned() : QVariant();
    case Qt::ForegroundRole: return p.port ? QVariant() : QVariant(kAlarm);
    case Qt::ToolTipRole:
        return !p.port && c == HostPort ? tr("No host adapter of the topology is named %1: its pairs are not routed").arg(host()) : QVariant();
    default: return {};
    }
}

bool JobRanksModel::rowMatches(int row, std::string_view lowerText, std::optional<int> rank) const {
    if (!job() || row < 0 || row >= rows(*job())) return false;
    const JobRankPlace& p = job()->rankPlaces[static_cast<std::size_t>(row)];
    if (rank && p.rank == *rank) return true;
    return containsNoCase(p.host, lowerText) || containsNoCase(p.device, lowerText) || (p.port && containsNoCase(p.port->node, lowerText)) ||
           (p.switchPort && containsNoCase(p.switchPort->node, lowerText));
}

JobTableProxy::JobTableProxy(QObject* parent) : QSortFilterProxyModel(parent) { setSortRole(JobTableModel::SortRole); }

void JobTableProxy::setSourceModel(QAbstractItemModel* model) {
    QSortFilterProxyModel::setSourceModel(model);
    connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { keysColumn_ = -1; });  // another job: keys read again
}

void JobTableProxy::setFilterText(const QString& text) {
    const QString t = text.trimmed();
    text_ = t.toLower().toStdString();
    bool number = false;
    const int rank = t.toInt(&number);
    rank_ = number && rank >= 0 ? std::optional<int>(rank) : std::nullopt;
    invalidateFilter();
}

void JobTableProxy::readKeys(int column) {
    keysColumn_ = -1;
    numbers_.clear();
    texts_.clear();
    const QAbstractItemModel* m = sourceModel();
    if (!m || column < 0) return;
    const int rows = m->rowCount();
    const bool numeric = rows > 0 && m->index(0, column).data(sortRole()).typeId() != QMetaType::QString;
    if (numeric) numbers_.reserve(static_cast<std::size_t>(rows));
    else texts_.reserve(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r) {
        const QVariant key = m->index(r, column).data(sortRole());
        if (numeric) numbers_.push_back(key.toDouble());
        else texts_.push_back(key.toString());
    }
    keysColumn_ = column;
}

void JobTableProxy::sort(int column, Qt::SortOrder order) {
    if (column != keysColumn_) readKeys(column);
    QSortFilterProxyModel::sort(column, order);
}

bool JobTableProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (left.column() != keysColumn_) return QSortFilterProxyModel::lessThan(left, right);
    const auto l = static_cast<std::size_t>(left.row()), r = static_cast<std::size_t>(right.row());
    if (!numbers_.empty()) return numbers_[l] < numbers_[r];
    return texts_[l].compare(texts_[r], Qt::CaseInsensitive) < 0;
}

bool JobTableProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
    const auto* m = static_cast<const JobTableModel*>(sourceModel());
    return text_.empty() || m->rowMatches(sourceRow, text_, rank_);
}

} // namespace fabscope
