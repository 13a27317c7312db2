#pragma once
// The Job routes dock's two tables as lazy models over one job of an immutable FindingsReport:
// cells are made in data() only, for the rows on screen, so a job of tens of thousands of ranks
// and pairs shows at once instead of building an item per cell on the GUI thread. A job shows in
// the analysis' order (pairs worst first, ranks by number) without a sort; a click on a header
// sorts by the column's SortRole (numbers as numbers, an unknown value last), each row's key
// read once. The filter reads the job's own strings, not the cells' text.
#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabscope {

struct FindingsReport;
struct JobRoutes;

// A job of a report, or none: what both models show.
class JobTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { SortRole = Qt::UserRole + 1 };
    using QAbstractTableModel::QAbstractTableModel;

    // Shows job `index` of `report` (nothing when out of range).
    void setJob(std::shared_ptr<const FindingsReport> report, int index);
    [[nodiscard]] const JobRoutes* job() const { return job_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // True when a host, adapter, node or reason of the row contains `lowerText` (ASCII, any
    // case; give it lower case), or when `rank` is one of the row's ranks.
    [[nodiscard]] virtual bool rowMatches(int row, std::string_view lowerText, std::optional<int> rank) const = 0;

protected:
    [[nodiscard]] virtual int rows(const JobRoutes& job) const = 0;
    [[nodiscard]] virtual int columns() const = 0;  // a constant: asked for on every index made
    [[nodiscard]] virtual QStringList headers() const = 0;
    [[nodiscard]] virtual QStringList headerTips() const = 0;

private:
    std::shared_ptr<const FindingsReport> report_;
    const JobRoutes* job_ = nullptr;  // in report_
};

// The job's pairs, worst headroom first; the straggler's (the first, when the job has one) in red.
class JobPairsModel : public JobTableModel {
    Q_OBJECT
public:
    enum Column { Pair, Headroom, Bottleneck, FreeGbps, Reason, RoutedBy, ColumnCount };
    using JobTableModel::JobTableModel;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool rowMatches(int row, std::string_view lowerText, std::optional<int> rank) const override;

protected:
    int rows(const JobRoutes& job) const override;
    int columns() const override { return ColumnCount; }
    QStringList headers() const override;
    QStringList headerTips() const override;
};

// Every rank of the job, in rank order, with where it runs; a rank off the fabric in red.
class JobRanksModel : public JobTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Host, HostPort, SwitchPort, MedianHeadroom, NamedAt, ColumnCount };
    using JobTableModel::JobTableModel;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool rowMatches(int row, std::string_view lowerText, std::optional<int> rank) const override;

protected:
    int rows(const JobRoutes& job) const override;
    int columns() const override { return ColumnCount; }
    QStringList headers() const override;
    QStringList headerTips() const override;
};

// Sorts by SortRole, each row's key read once a sort; keeps the rows the model says match the
// filter text (a host, adapter, node or reason containing it, or a rank by its number).
class JobTableProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit JobTableProxy(QObject* parent = nullptr);
    void setSourceModel(QAbstractItemModel* model) override;
    void setFilterText(const QString& text);
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    void readKeys(int column);

    std::string text_;  // lower case; empty: every row
    std::optional<int> rank_;
    // The sort column's key of every source row: numbers, or texts when the column holds text.
    int keysColumn_ = -1;
    std::vector<double> numbers_;
    std::vector<QString> texts_;
};

} // namespace fabscope
