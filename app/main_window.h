#pragma once
// Wires the views to a store: open, import (in the background, with progress and Cancel), show.
#include "views/store_snapshot.h"

#include <QMainWindow>

#include <atomic>
#include <memory>

class QLabel;
class QTableWidget;
class QTreeWidget;

namespace fabscope {

class FabricOverviewWidget;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    void openStore(const QString& path);
    void importFiles(const QStringList& files);
    [[nodiscard]] std::shared_ptr<const StoreSnapshot> snapshot() const { return snapshot_; }

Q_SIGNALS:
    void storeLoaded();
    void importFinished(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void showSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    void chooseStoreToOpen();
    void chooseFilesToImport();

    QString storePath_;
    std::shared_ptr<const StoreSnapshot> snapshot_;
    FabricOverviewWidget* overview_ = nullptr;
    QTreeWidget* summary_ = nullptr;
    QTableWidget* imports_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancelImport_;
    int loadGeneration_ = 0;  // results of superseded loads are dropped
};

} // namespace fabscope
