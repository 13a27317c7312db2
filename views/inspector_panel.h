#pragma once
// The inspector dock: details of the selected node, port or link (description, GUID, type, tier,
// LID, width/speed, capacity, state), its rates at the cursor, the raw counter values at the
// cursor (read from the store on a worker when the cursor settles; stale reads dropped) and its
// neighbours. Activating a neighbour or a port (double-click, Enter) selects it.
#include <QWidget>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

class QLabel;
class QStandardItem;
class QStandardItemModel;
class QTreeView;

namespace fabscope {

struct StoreSnapshot;
struct CounterIndex;
struct CounterReading;
class BackgroundJob;
class SelectionController;
class TimeController;

class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    InspectorPanel(SelectionController* selection, TimeController* time, QWidget* parent = nullptr);
    ~InspectorPanel() override;

    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    [[nodiscard]] QTreeView* tree() const { return tree_; }
    // Every "key: value" line of the tree (tests and the clipboard).
    [[nodiscard]] QString text() const;

Q_SIGNALS:
    void countersUpdated();  // raw counters at the cursor arrived

private:
    void rebuild();
    void updateRates();
    void requestCounters();
    void showCounters(const std::vector<CounterReading>& readings, const QString& error);
    // A section heading and key/value rows under it; row() returns the key item (column 0).
    QStandardItem* section(const QString& title);
    QStandardItem* row(QStandardItem* parent, const QString& key, const QString& value);
    void addNode(QStandardItem* parent, int node);
    void addPort(QStandardItem* parent, int port);
    void addModule(QStandardItem* parent, int port);  // what the port's optic or cable reported, when known
    void addBitErrors(QStandardItem* parent, int port);  // the port's FEC mode and bit error rates, when read
    // What ibdiagnet reported about the node (all of it) or one of its ports (that port's and the
    // node's own); `about` names the port in the section's title when a link shows both ends.
    void addEvents(int node, const std::string* port, const QString& about = {});
    void addRates(QStandardItem* parent, int link);
    void expand(QStandardItem* item, bool expanded = true);
    void addNeighbours(int node);
    [[nodiscard]] std::vector<int> selectedPorts() const;

    SelectionController* selection_;
    TimeController* time_;
    std::shared_ptr<const StoreSnapshot> snapshot_;
    BackgroundJob* countersJob_;  // reads of an older selection or cursor are dropped
    struct CounterIndexCache {
        std::mutex mutex;
        std::shared_ptr<const CounterIndex> index;  // built on the first read, per snapshot
    };
    std::shared_ptr<CounterIndexCache> counterIndex_;
    QLabel* title_ = nullptr;
    QTreeView* tree_ = nullptr;
    QStandardItemModel* model_ = nullptr;
    QStandardItem* counters_ = nullptr;
    static constexpr int kCapacityRow = -1;  // a RateRow's metric: the link's capacity at the cursor
    struct RateRow {
        QStandardItem* item;  // the value
        int link;
        int metric;
    };
    std::vector<RateRow> rateRows_;
};

} // namespace fabscope
