#pragma once
// The findings table: a lazy model over one immutable FindingsReport (strings are made in data()
// only, docs/ARCHITECTURE.md, conventions), sorted and filtered through FindingsProxy. The first
// column groups the rows by incident (core/analysis/incidents.h): "#1 critical" on the cause, with
// the incident's severity, and "↳ #1" on each finding it explains; sorting by it keeps the cause first.
#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>
#include <vector>

namespace fabscope {

struct FindingsReport;
struct Finding;

class FindingsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Incident, Severity, Kind, Start, Duration, Summary, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, StartTimeRole };
    explicit FindingsModel(QObject* parent = nullptr);
    ~FindingsModel() override;

    void setReport(std::shared_ptr<const FindingsReport> report);
    [[nodiscard]] const Finding* finding(int row) const;
    [[nodiscard]] std::shared_ptr<const FindingsReport> report() const { return report_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant incidentData(const Finding& f, int row, int role) const;

    std::shared_ptr<const FindingsReport> report_;
    std::vector<int> position_;  // per row: its place in its incident (0 = the cause)
};

// Sorts by the model's SortRole and filters rows whose kind, summary or severity contain the text.
class FindingsProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit FindingsProxy(QObject* parent = nullptr);
    void setFilterText(const QString& text);
    [[nodiscard]] QString filterText() const { return text_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString text_;
};

} // namespace fabscope
