// The window's docks, made one way (addDock), and their default layout: at 1400x900 the
// findings show ten rows with every column, the right-hand tabs read in full, and the bottom
// keeps the heatmap beside the link charts. View > Reset layout returns to it.
#include "app/main_window.h"
#include "views/annotations_panel.h"
#include "views/benchmarks_panel.h"
#include "views/diagnostics_panel.h"
#include "views/fabric_view.h"
#include "views/findings_panel.h"
#include "views/heatmap_view.h"
#include "views/inspector_panel.h"
#include "views/job_panel.h"
#include "views/latency_matrix_view.h"
#include "views/link_charts_panel.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QTableWidget>
#include <QTreeWidget>

namespace fabscope {

QDockWidget* MainWindow::addDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setAccessibleName(title);
    dock->setWidget(widget);
    addDockWidget(area, dock);
    dockMenuActions_.append(dock->toggleViewAction());
    return dock;
}

void MainWindow::createDocks() {
    // The right-hand column runs the window's full height; the bottom docks sit under the fabric.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);

    findings_ = new FindingsPanel(this);
    QDockWidget* findingsDock = addDock(tr("Findings"), QStringLiteral("findingsDock"), findings_, Qt::RightDockWidgetArea);

    summary_ = new QTreeWidget(this);
    summary_->setObjectName(QStringLiteral("summary"));
    summary_->setAccessibleName(tr("Store summary"));
    summary_->setHeaderLabels({tr("Store"), tr("Value")});
    summary_->setRootIsDecorated(false);
    QDockWidget* summaryDock = addDock(tr("Summary"), QStringLiteral("summaryDock"), summary_, Qt::RightDockWidgetArea);

    imports_ = new QTableWidget(0, 6, this);
    imports_->setObjectName(QStringLiteral("imports"));
    imports_->setAccessibleName(tr("Imported files"));
    imports_->setHorizontalHeaderLabels({tr("File"), tr("Format"), tr("Rows"), tr("Imported (UTC)"), tr("Named by its path"), tr("SHA-256")});
    imports_->horizontalHeaderItem(4)->setToolTip(
        tr("The host or job this file's name gave its rows. A file of the same bytes is imported again under another such name "
           "(two idle switches' all-zero PFC counters), not under the same one."));
    imports_->horizontalHeader()->setStretchLastSection(true);
    imports_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    QDockWidget* importsDock = addDock(tr("Imports"), QStringLiteral("importsDock"), imports_, Qt::RightDockWidgetArea);
    tabifyDockWidget(summaryDock, importsDock);

    inspector_ = new InspectorPanel(selection_, time_, this);
    QDockWidget* inspectorDock = addDock(tr("Inspector"), QStringLiteral("inspectorDock"), inspector_, Qt::RightDockWidgetArea);
    tabifyDockWidget(summaryDock, inspectorDock);
    charts_ = new LinkChartsPanel(selection_, time_, this);
    QDockWidget* chartsDock = addDock(tr("Link charts"), QStringLiteral("chartsDock"), charts_, Qt::BottomDockWidgetArea);
    heatmap_ = new HeatmapView(this);
    QDockWidget* heatmapDock = addDock(tr("Heatmap"), QStringLiteral("heatmapDock"), heatmap_, Qt::BottomDockWidgetArea);
    splitDockWidget(heatmapDock, chartsDock, Qt::Horizontal);
    annotations_ = new AnnotationsPanel(selection_, time_, this);
    QDockWidget* annotationsDock = addDock(tr("Annotations"), QStringLiteral("annotationsDock"), annotations_, Qt::RightDockWidgetArea);
    tabifyDockWidget(findingsDock, annotationsDock);
    diagnostics_ = new DiagnosticsPanel(this);
    QDockWidget* diagnosticsDock = addDock(tr("Import diagnostics"), QStringLiteral("diagnosticsDock"), diagnostics_, Qt::RightDockWidgetArea);
    tabifyDockWidget(importsDock, diagnosticsDock);
    // Benchmarks (perftest, nccl-tests): loads itself off the GUI thread from each opened store.
    auto* benchmarks = new BenchmarksPanel(this);
    QDockWidget* benchmarksDock = addDock(tr("Benchmarks"), QStringLiteral("benchmarksDock"), benchmarks, Qt::BottomDockWidgetArea);
    tabifyDockWidget(chartsDock, benchmarksDock);
    connect(this, &MainWindow::storeLoaded, benchmarks, [this, benchmarks] { benchmarks->setSnapshot(snapshot_); });
    // A slow_pair or slow_host of the benchmarks selects its cell or host row in the Pairwise tab.
    connect(findings_, &FindingsPanel::findingActivated, benchmarks, [benchmarks, benchmarksDock](const Finding& f) {
        if (!benchmarks->showFinding(f)) return;
        benchmarksDock->show();
        benchmarksDock->raise();
    });
    // Latency matrix (pingmesh): follows the time window; a clicked pair's route overlays the graph.
    auto* matrix = new LatencyMatrixView(time_, selection_, this);
    QDockWidget* matrixDock = addDock(tr("Latency matrix"), QStringLiteral("latencyMatrixDock"), matrix, Qt::BottomDockWidgetArea);
    tabifyDockWidget(chartsDock, matrixDock);
    connect(this, &MainWindow::storeLoaded, matrix, [this, matrix] { matrix->setSnapshot(snapshot_); });
    connect(matrix, &LatencyMatrixView::routeRequested, fabric_, &FabricView::setFindingOverlay);
    // Job routes: the analysis' routed pairs of each job; a chosen pair's route overlays the graph.
    jobs_ = new JobPanel(this);
    jobsDock_ = addDock(tr("Job routes"), QStringLiteral("jobsDock"), jobs_, Qt::RightDockWidgetArea);
    tabifyDockWidget(findingsDock, jobsDock_);
    connect(jobs_, &JobPanel::pairActivated, this, &MainWindow::showJobFocus);
    connect(jobs_, &JobPanel::rankActivated, this, &MainWindow::showJobFocus);
    createCompareDock(findingsDock, chartsDock);  // Changes, tabbed with the findings
    createWhatIfDock(findingsDock);               // Prediction, likewise

    findingsDock->raise();
    inspectorDock->raise();
    chartsDock->raise();
    // Sizes for 1400x900: a 580 px column on the right (findings over the inspector), the bottom
    // 330 px high, shared by the heatmap and the charts.
    resizeDocks({findingsDock}, {580}, Qt::Horizontal);
    resizeDocks({findingsDock, inspectorDock}, {420, 420}, Qt::Vertical);
    resizeDocks({heatmapDock, chartsDock}, {420, 400}, Qt::Horizontal);
    resizeDocks({heatmapDock}, {330}, Qt::Vertical);
}

void MainWindow::resetLayout() { restoreState(defaultLayout_); }

} // namespace fabscope
