#pragma once
// Wires the views to a store: open, import (in the background, with progress and Cancel), the
// one time cursor, the analysis and the selection. The views and controllers live in views/.
#include "views/store_snapshot.h"

#include <QByteArray>
#include <QList>
#include <QMainWindow>

#include <memory>
#include <optional>

class QComboBox;
class QDockWidget;
class QMenu;
class QStackedWidget;
class QTableWidget;
class QTreeWidget;

namespace fabscope {

struct Finding;
struct FindingsReport;
struct ImportOutcome;
class AnalysisController;
class CompareCharts;
class ComparePanel;
struct CompareRequest;
struct CompareResult;
class BackgroundJob;
class ImportJob;
class AnnotationsPanel;
class DiagnosticsPanel;
class RecentStores;
class ReportExporter;
class FabricView;
class FindingsPanel;
class HeatmapView;
class InspectorPanel;
class JobPanel;
struct FindingFocus;
class LinkChartsPanel;
class SelectionController;
class TimeController;
class TimeScrubber;
class WhatIfPanel;
struct WhatIfResult;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    void openStore(const QString& path);
    // Imports into the open store (asks for a new one when none is open); `format` forces one
    // importer by name, empty detects each file's format from its content.
    void importFiles(const QStringList& files, const QString& format = {});
    [[nodiscard]] std::shared_ptr<const StoreSnapshot> snapshot() const { return snapshot_; }
    [[nodiscard]] TimeController* timeController() const { return time_; }
    [[nodiscard]] SelectionController* selection() const { return selection_; }
    [[nodiscard]] ReportExporter* reportExporter() const { return exporter_; }
    [[nodiscard]] RecentStores* recentStores() const { return recent_; }
    // File > Compare… (app/main_window_compare.cpp): the dialog's OK calls this; so may tests.
    void compareWith(const CompareRequest& request);
    [[nodiscard]] ComparePanel* comparePanel() const { return compare_; }
    [[nodiscard]] CompareCharts* compareCharts() const { return compareCharts_; }
    // What-if (app/main_window_whatif.cpp): the fabric's right-click menu predicts a failure.
    [[nodiscard]] WhatIfPanel* whatIfPanel() const { return whatIf_; }

Q_SIGNALS:
    void fabricShown();  // the fabric of an opened store is drawn; its rates are still loading
    void storeLoaded();  // the rates are in too (or the open failed)
    void importFinished(bool ok);
    void analysisFinished();
    void reportExported(bool ok, const QString& message);
    void compareFinished(bool ok);  // a comparison landed (compare mode on), failed or was cancelled
    void whatIfFinished(bool ok);   // a prediction landed (shown), failed or was cancelled

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void createDocks();
    void resetLayout();  // View > Reset layout: the docks as a new window has them
    void showSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    void loadRates(std::shared_ptr<const StoreSnapshot> base);
    void showImportOutcome(const QString& storePath, const ImportOutcome& outcome);
    bool importBusy();  // says so in the status bar
    void showRates(std::shared_ptr<const StoreSnapshot> snapshot);
    void setSnapshotOnViews();
    void showSummary();
    QDockWidget* addDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area);
    void focusFinding(const Finding& finding);
    void showJobFocus(const FindingFocus& focus);
    void chooseStoreToOpen();
    void chooseFilesToImport();
    // View > Go to time… (app/main_window_time.cpp): the cursor to a typed time; false (and a
    // status message) when it is not a time or lies outside the store's span.
    void askTimeToGoTo();
    bool goToTime(const QString& text);
    // Compare mode (app/main_window_compare.cpp): the Changes dock and the compare charts beside
    // the link charts, File > Compare… / Leave compare (Esc) / Back to compare, and the wiring.
    void createCompareDock(QDockWidget* tabWith, QDockWidget* chartsDock);
    void addCompareActions(QMenu* file);
    void enterCompare(std::shared_ptr<const CompareResult> result);
    void leftCompare();
    // What-if (app/main_window_whatif.cpp): the Prediction dock, the fabric's right-click menu,
    // Leave prediction (Esc) / Back to prediction, and the prediction's colouring of the fabric.
    void createWhatIfDock(QDockWidget* tabWith);
    void addWhatIfActions(QMenu* file);
    void offerWhatIf(QMenu* menu, int node, int link);
    void enterWhatIf(std::shared_ptr<const WhatIfResult> result);
    void leftWhatIf();

    QString storePath_;
    QString lastImport_;  // the last import's result line, shown with the reopened store
    QString openedMessage(const QString& path);
    std::shared_ptr<const StoreSnapshot> snapshot_;
    std::shared_ptr<const FindingsReport> lastReport_;  // the findings on screen
    TimeController* time_ = nullptr;
    SelectionController* selection_ = nullptr;
    InspectorPanel* inspector_ = nullptr;
    LinkChartsPanel* charts_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
    AnnotationsPanel* annotations_ = nullptr;
    DiagnosticsPanel* diagnostics_ = nullptr;
    ReportExporter* exporter_ = nullptr;
    RecentStores* recent_ = nullptr;
    AnalysisController* analysis_ = nullptr;
    FabricView* fabric_ = nullptr;
    TimeScrubber* scrubber_ = nullptr;
    QComboBox* metricBox_ = nullptr;
    FindingsPanel* findings_ = nullptr;
    JobPanel* jobs_ = nullptr;
    QDockWidget* jobsDock_ = nullptr;
    QByteArray defaultLayout_;  // saveState() of the docks before the user's saved layout
    QTreeWidget* summary_ = nullptr;
    QTableWidget* imports_ = nullptr;
    QList<QAction*> dockMenuActions_;
    BackgroundJob* loadJob_ = nullptr;   // the store's fabric; a newer open supersedes it
    BackgroundJob* ratesJob_ = nullptr;  // its link rates, cancelled by a newer open
    ImportJob* importJob_ = nullptr;     // one import (files or a pull) at a time
    QString metricNote_;                 // why the metric box changed by itself, for the status line
    std::optional<LinkMetric> pickedMetric_;  // the metric the user chose, kept where a store has it
    ComparePanel* compare_ = nullptr;
    CompareCharts* compareCharts_ = nullptr;
    QStackedWidget* chartsStack_ = nullptr;  // the link charts, or in compare mode the compare charts
    QDockWidget* changesDock_ = nullptr;
    QAction* leaveCompare_ = nullptr;
    QAction* backToCompare_ = nullptr;
    WhatIfPanel* whatIf_ = nullptr;
    QDockWidget* predictionDock_ = nullptr;
    QAction* leavePrediction_ = nullptr;
    QAction* backToPrediction_ = nullptr;
    QList<QAction*> escActionsHeld_;  // the window's other Esc actions, disabled in compare mode
};

} // namespace fabscope
