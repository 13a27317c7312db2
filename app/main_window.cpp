#include "app/main_window.h"
#include "app/import_job.h"

#include "importers/import_runner.h"
#include "core/analysis/findings.h"
#include "views/analysis_controller.h"
#include "views/background_job.h"
#include "views/annotations_panel.h"
#include "views/benchmarks_panel.h"
#include "views/compare_panel.h"
#include "views/whatif_panel.h"
#include "views/diagnostics_panel.h"
#include "views/fabric_view.h"
#include "views/finding_focus.h"
#include "views/findings_panel.h"
#include "views/utc_text.h"
#include "views/heatmap_view.h"
#include "views/latency_matrix_view.h"
#include "views/inspector_panel.h"
#include "core/analysis/analysis_config.h"
#include "views/help_dialog.h"
#include "views/import_dialog.h"
#include "views/job_panel.h"
#include "views/node_search.h"
#include "views/settings_dialog.h"
#include "views/layout_chooser.h"
#include "views/link_charts_panel.h"
#include "views/metric_choice.h"
#include "views/recent_stores.h"
#include "views/report_export.h"
#include "views/selection.h"
#include "views/time_controller.h"
#include "views/time_scrubber.h"

#include <QAction>
#include <algorithm>
#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTableWidget>
#include <QTreeWidget>

namespace fabscope {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("FabScope"));
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    time_ = new TimeController(this);
    selection_ = new SelectionController(this);
    analysis_ = new AnalysisController(this);
    loadJob_ = new BackgroundJob(QStringLiteral("storeLoadJob"), this);
    ratesJob_ = new BackgroundJob(QStringLiteral("linkRatesJob"), this);
    importJob_ = new ImportJob(this);
    connect(importJob_, &ImportJob::finished, this, &MainWindow::showImportOutcome);
    QString configProblem;  // shown once the status bar is up
    try {
        analysis_->setConfig(loadUserConfig());  // the thresholds the CLI uses too
    } catch (const ConfigError& e) {
        configProblem = tr("Analysis config ignored, defaults used: %1").arg(QString::fromUtf8(e.what()));
    }

    fabric_ = new FabricView(this);
    fabric_->setMarkConfig(analysis_->config());  // which port modules and bit error rates it marks
    scrubber_ = new TimeScrubber(time_, this);
    auto* centre = new QWidget(this);
    auto* layout = new QVBoxLayout(centre);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(fabric_, 1);
    layout->addWidget(scrubber_);
    setCentralWidget(centre);

    exporter_ = new ReportExporter(this);
    createDocks();
    createActions();

    // One cursor, broadcast: every view follows the TimeController.
    connect(time_, &TimeController::cursorChanged, fabric_, &FabricView::setTime);
    // The store's annotations on the timeline, refreshed whenever the Annotations dock (re)loads.
    connect(annotations_->model(), &QAbstractItemModel::modelReset, scrubber_,
            [this] { scrubber_->setAnnotations(annotations_->model()->annotations()); });
    connect(time_, &TimeController::cursorChanged, heatmap_, &HeatmapView::setTime);
    // One selection, broadcast: the fabric and the heatmap set it, every panel follows it.
    connect(fabric_, &FabricView::nodeClicked, selection_, &SelectionController::selectNode);
    connect(fabric_, &FabricView::linkClicked, selection_, &SelectionController::selectLink);
    connect(fabric_, &FabricView::selectionCleared, selection_, &SelectionController::clear);
    connect(heatmap_, &HeatmapView::linkClicked, selection_, &SelectionController::selectLink);
    connect(heatmap_, &HeatmapView::timeClicked, time_, &TimeController::setTime);
    connect(selection_, &SelectionController::changed, this, [this] {
        const int link = linkOfSelection(*selection_, snapshot_.get());
        if (link >= 0) fabric_->selectLink(link);
        else if (selection_->node() >= 0) fabric_->selectNode(selection_->node());
        else fabric_->clearSelection();
        heatmap_->setSelectedLink(link);
        fabric_->clearFindingOverlay();  // a finding's overlay lasts until the selection moves on
    });
    // The selected range is the analysis window.
    auto* rerun = new QTimer(this);
    rerun->setSingleShot(true);
    rerun->setInterval(300);
    connect(time_, &TimeController::selectionChanged, rerun, qOverload<>(&QTimer::start));
    connect(rerun, &QTimer::timeout, this, [this] {
        if (!storePath_.isEmpty() && snapshot_) analysis_->runIfNew(storePath_, time_->selection());
    });
    connect(analysis_, &AnalysisController::started, this, [this] { findings_->setBusy(tr("Analysing…")); });
    connect(analysis_, &AnalysisController::finished, this, [this](std::shared_ptr<const FindingsReport> r) {
        lastReport_ = r;
        jobs_->setReport(r);
        findings_->setReport(std::move(r));
        Q_EMIT analysisFinished();
    });
    connect(analysis_, &AnalysisController::failed, this, [this](const QString& m) {
        findings_->setBusy(tr("Analysis failed: %1").arg(m));
        Q_EMIT analysisFinished();
    });
    connect(findings_, &FindingsPanel::findingActivated, this, &MainWindow::focusFinding);

    connect(exporter_, &ReportExporter::finished, this, [this](bool ok, const QString& message) {
        statusBar()->showMessage(ok ? tr("Report written to %1").arg(message) : message);
        if (!ok) {
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Export report"), message, QMessageBox::Ok, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        Q_EMIT reportExported(ok, message);
    });
    connect(recent_, &RecentStores::openRequested, this, &MainWindow::openStore);

    statusBar()->showMessage(configProblem.isEmpty() ? tr("Open a store (Ctrl+O) or drop files to import (Ctrl+I).") : configProblem);
    resize(1400, 900);
    defaultLayout_ = saveState();  // View > Reset layout goes back here
    const QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::showJobFocus(const FindingFocus& focus) {
    if (focus.empty()) {
        statusBar()->showMessage(tr("No job to draw: import an NCCL log (NCCL_DEBUG=INFO) or a job CSV with a topology."));
        return;
    }
    if (focus.nodes.empty()) fabric_->fit();  // no pair routed: the job's links over the whole fabric
    else fabric_->frameNodes(focus.nodes);
    fabric_->setFindingOverlay(focus);
}

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open store…"), this, &MainWindow::chooseStoreToOpen);
    open->setShortcut(QKeySequence::Open);
    QAction* import = file->addAction(tr("&Import files…"), this, &MainWindow::chooseFilesToImport);
    import->setShortcut(QKeySequence(tr("Ctrl+I")));
    file->addAction(tr("Import from &Prometheus…"), this, [this] {
            if (!importBusy()) importJob_->askAndPull(storePath_);
        })->setObjectName(QStringLiteral("importPrometheusAction"));
    recent_ = new RecentStores(file->addMenu(tr("&Recent stores")), this);
    file->addSeparator();
    QAction* exportReport = file->addAction(tr("&Export report…"), this, [this] {
        exporter_->setAnalysis(analysis_->config(), lastReport_);  // the findings on screen, when their window is the report's
        exporter_->chooseAndExport(storePath_, time_->selection());
    });
    exportReport->setObjectName(QStringLiteral("exportReportAction"));
    exportReport->setShortcut(QKeySequence(tr("Ctrl+E")));
    exportReport->setToolTip(tr("HTML, PDF, CSV or JSON by the file's extension, over the selected time window"));
    file->addSeparator();
    addCompareActions(file);
    addWhatIfActions(file);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* analysisMenu = menuBar()->addMenu(tr("&Analysis"));
    QAction* thresholds = analysisMenu->addAction(tr("&Thresholds…"), this, [this] {
        auto* dialog = new SettingsDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, this, [this, dialog] {
            const AnalysisConfig before = analysis_->config();
            analysis_->setConfig(dialog->config());
            fabric_->setMarkConfig(analysis_->config());
            // The shares of time the views draw are converted with the tick and the PFC frame model.
            const AnalysisConfig& after = analysis_->config();
            const bool reconvert = before.congestionTree.tickNs != after.congestionTree.tickNs ||
                                   before.pfcStorm.frameQuanta != after.pfcStorm.frameQuanta ||
                                   before.pfcStorm.xoffRefresh != after.pfcStorm.xoffRefresh ||
                                   before.pfcStorm.defaultSpeedGbps != after.pfcStorm.defaultSpeedGbps || before.gapFactor != after.gapFactor;
            if (reconvert && snapshot_ && snapshot_->snapshotId) loadRates(snapshot_);
            lastReport_.reset();
            statusBar()->showMessage(tr("Analysis thresholds saved to %1").arg(QString::fromStdString(userConfigPath())));
            if (!storePath_.isEmpty() && snapshot_) analysis_->run(storePath_, time_->selection());
        });
        dialog->open();
    });
    thresholds->setObjectName(QStringLiteral("thresholdsAction"));
    thresholds->setShortcut(QKeySequence(tr("Ctrl+,")));
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit fabric"), fabric_, &FabricView::fit);
    fit->setShortcut(QKeySequence(tr("Ctrl+0")));
    // Ctrl+F is Find (the node search below); the findings dock has Ctrl+Shift+F.
    QAction* focusFindings = view->addAction(tr("Go to fin&dings"), this, [this] {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("findingsDock"))) {
            dock->show();
            dock->raise();
        }
        findings_->table()->setFocus();
    });
    focusFindings->setObjectName(QStringLiteral("goToFindingsAction"));
    focusFindings->setShortcut(QKeySequence(tr("Ctrl+Shift+F")));
    focusFindings->setToolTip(tr("Show the Findings dock and put the cursor in its table (Ctrl+Shift+F; Ctrl+F is Find node)"));
    QAction* jobRoutes = view->addAction(tr("&Job routes"), this, [this] {
        jobsDock_->show();
        jobsDock_->raise();
        showJobFocus(jobs_->currentFocus());
    });
    jobRoutes->setObjectName(QStringLiteral("jobRoutesAction"));
    jobRoutes->setShortcut(QKeySequence(tr("Ctrl+J")));
    jobRoutes->setToolTip(tr("Draw the current job's routes on the fabric, its straggler path (or worst pair) hop by hop"));
    QAction* focusFabric = view->addAction(tr("Go to f&abric"), this, [this] { fabric_->setFocus(); });
    focusFabric->setShortcut(QKeySequence(tr("Ctrl+G")));
    QAction* goToTime = view->addAction(tr("Go to &time…"), this, &MainWindow::askTimeToGoTo);
    goToTime->setObjectName(QStringLiteral("goToTimeAction"));
    goToTime->setShortcut(QKeySequence(tr("Ctrl+T")));
    goToTime->setToolTip(tr("Move the cursor to a time typed or pasted from a log: UTC (2023-11-14 22:17:05), "
                            "ISO 8601 with an offset, UNIX seconds, or a time of day (Ctrl+T)"));

    QToolBar* bar = addToolBar(tr("View"));
    bar->setObjectName(QStringLiteral("viewToolBar"));
    metricBox_ = new QComboBox(bar);
    metricBox_->setObjectName(QStringLiteral("metricBox"));
    metricBox_->setAccessibleName(tr("Colour links by"));
    metricBox_->setToolTip(tr("What link colours show at the cursor time (Ctrl+M cycles)"));
    for (int m = 0; m < kLinkMetricCount; ++m) {
        const auto metric = static_cast<LinkMetric>(m);
        metricBox_->addItem(tr("%1 (%2)").arg(QString::fromUtf8(metricName(metric).data()), QString::fromUtf8(metricUnit(metric).data())), m);
    }
    connect(metricBox_, &QComboBox::currentIndexChanged, this,
            [this](int i) {
                const auto m = static_cast<LinkMetric>(metricBox_->itemData(i).toInt());
                fabric_->setMetric(m);
                heatmap_->setMetric(m);
            });
    // A metric the user chose (not one picked for the store) is kept by the next store that has it.
    connect(metricBox_, &QComboBox::activated, this,
            [this](int i) { pickedMetric_ = static_cast<LinkMetric>(metricBox_->itemData(i).toInt()); });
    bar->addWidget(new QLabel(tr(" Colour links by: "), bar));
    bar->addWidget(metricBox_);
    bar->addWidget(new LayoutChooser(fabric_, bar));
    auto* search = new NodeSearchBox(bar);
    bar->addWidget(search);
    connect(this, &MainWindow::fabricShown, search, [this, search] { search->setSnapshot(snapshot_); });
    connect(search, &NodeSearchBox::message, statusBar(), [this](const QString& m) { statusBar()->showMessage(m); });
    connect(search, &NodeSearchBox::nodeFound, this, [this](int node) {
        selection_->selectNode(node);
        fabric_->frameNodes({static_cast<std::uint32_t>(node)});
    });
    QAction* find = view->addAction(tr("&Find node…"), search, [search] {
        search->setFocus();
        search->selectAll();
    });
    find->setObjectName(QStringLiteral("findNodeAction"));
    find->setShortcuts({QKeySequence(QKeySequence::Find), QKeySequence(tr("Ctrl+K"))});  // Ctrl+F; Ctrl+K as before
    find->setToolTip(tr("Find a node by name, host, GUID or LID (Ctrl+F or Ctrl+K)"));
    addLayoutMenu(view, fabric_);
    QAction* cycle = view->addAction(tr("Next &metric"), this, [this] {
        // The next metric this store has counters for.
        const auto* model = qobject_cast<QStandardItemModel*>(metricBox_->model());
        for (int k = 1; k <= metricBox_->count(); ++k) {
            const int i = (metricBox_->currentIndex() + k) % metricBox_->count();
            if (!model || model->item(i)->isEnabled()) {
                pickedMetric_ = static_cast<LinkMetric>(metricBox_->itemData(i).toInt());
                return metricBox_->setCurrentIndex(i);
            }
        }
    });
    cycle->setShortcut(QKeySequence(tr("Ctrl+M")));
    QAction* focusHeatmap = view->addAction(tr("Go to &heatmap"), this, [this] { heatmap_->setFocus(); });
    focusHeatmap->setShortcut(QKeySequence(tr("Ctrl+H")));
    QAction* focusInspector = view->addAction(tr("Go to &inspector"), this, [this] { inspector_->tree()->setFocus(); });
    focusInspector->setShortcut(QKeySequence(tr("Ctrl+Shift+I")));
    view->addSeparator();
    QAction* reset = view->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);
    reset->setObjectName(QStringLiteral("resetLayoutAction"));
    reset->setToolTip(tr("Every dock back where and as large as a new window has it"));
    QMenu* docks = view->addMenu(tr("&Docks"));
    for (int i = 0; i < dockMenuActions_.size(); ++i) {
        docks->addAction(dockMenuActions_[i]);
        if (i < 10) dockMenuActions_[i]->setShortcut(QKeySequence(tr("Alt+%1").arg((i + 1) % 10)));  // Alt+1..9, then Alt+0
    }
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keyboard shortcuts"), this, [this] {
        auto* d = new ShortcutsDialog(this);
        d->setAttribute(Qt::WA_DeleteOnClose);
        d->open();
    });
    keys->setShortcut(QKeySequence(Qt::Key_F1));
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    QAction* kinds = help->addAction(tr("&Finding kinds"), this, [this] {
        auto* d = new FindingKindsDialog(analysis_->config(), this);
        d->setAttribute(Qt::WA_DeleteOnClose);
        d->open();
    });
    kinds->setObjectName(QStringLiteral("findingKindsAction"));
    help->addAction(tr("&About FabScope"), this, [this] { showAbout(this); });
}

void MainWindow::chooseStoreToOpen() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open FabScope store"), QString(),
                                                      tr("FabScope stores (*.sqlite *.db);;All files (*)"));
    if (!path.isEmpty()) openStore(path);
}

void MainWindow::chooseFilesToImport() {
    if (importBusy()) return;
    QStringList formats;
    for (auto name : ImporterRegistry().names()) formats << QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    formats.sort();
    auto* dialog = new ImportDialog(formats, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { importFiles(dialog->files(), dialog->format()); });
    dialog->open();
}

void MainWindow::openStore(const QString& path) {
    storePath_ = path;
    lastReport_.reset();  // findings of another store
    ratesJob_->drop();    // rates of the store shown before are stale
    statusBar()->showMessage(tr("Loading %1…").arg(path));
    // Two steps: the fabric is drawn as soon as it is read, then the link rates colour it.
    loadJob_->run([p = path.toStdString()](const JobToken&) { return loadStoreFabric(p); },
                  [this, path](std::shared_ptr<const StoreSnapshot> base) {
                      showSnapshot(base);
                      recent_->add(path);
                      Q_EMIT fabricShown();
                      analysis_->run(path, std::nullopt);
                      loadRates(std::move(base));
                  },
                  [this, path](const QString& error) {
                      QMessageBox::critical(this, tr("Cannot open store"), error);
                      statusBar()->showMessage(tr("Cannot open %1").arg(path));
                      Q_EMIT storeLoaded();
                  });
}

void MainWindow::loadRates(std::shared_ptr<const StoreSnapshot> base) {
    if (base->snapshotId == 0) {  // no topology: no link rates to wait for
        statusBar()->showMessage(openedMessage(qs(base->path)));
        Q_EMIT storeLoaded();
        return;
    }
    statusBar()->showMessage(tr("Opened %1; loading link rates…").arg(qs(base->path)));
    ratesJob_->run([base = std::move(base), config = analysis_->config()](const JobToken& token) {
                       return withLinkRates(*base, token.flag(), config);
                   },
                   [this](std::shared_ptr<const StoreSnapshot> withRates) {
                       showRates(std::move(withRates));
                       statusBar()->showMessage(openedMessage(qs(snapshot_->path)));
                       Q_EMIT storeLoaded();
                   },
                   [this](const QString& error) {
                       QMessageBox::critical(this, tr("Cannot read link rates"), error);
                       statusBar()->showMessage(tr("Link rates of %1 could not be read").arg(qs(snapshot_->path)));
                       Q_EMIT storeLoaded();
                   });
}

void MainWindow::showSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    compare_->clear();  // a comparison is of the store shown before
    whatIf_->clear();   // and so is a prediction
    snapshot_ = std::move(snapshot);
    setWindowTitle(tr("FabScope — %1").arg(QFileInfo(qs(snapshot_->path)).fileName()));
    selection_->clear();
    setSnapshotOnViews();
    time_->reset(snapshot_->timeSpan(), snapshot_->rates.step);
    findings_->setReport(nullptr);
    showSummary();
}

// The same fabric with its rates: selection, cursor and findings stay as the user left them.
void MainWindow::showRates(std::shared_ptr<const StoreSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    fabric_->setRates(snapshot_);
    inspector_->setSnapshot(snapshot_);
    charts_->setSnapshot(snapshot_);
    heatmap_->setSnapshot(snapshot_);
    heatmap_->setSelectedLink(linkOfSelection(*selection_, snapshot_.get()));
    time_->setStep(snapshot_->rates.step);
    showSummary();
    // The user's metric when this store has data for it, else the first with data: a RoCE capture
    // without port speeds is coloured by throughput (Gb/s), one with PFC pause counters only by
    // the pause share, rather than a fabric all grey.
    const auto& r = snapshot_->rates;
    const LinkMetric chosen = chooseMetric(r, pickedMetric_);
    if (chosen != static_cast<LinkMetric>(metricBox_->currentData().toInt())) {
        metricBox_->setCurrentIndex(metricBox_->findData(static_cast<int>(chosen)));
        if (chosen == LinkMetric::ThroughputMax)
            metricNote_ = tr("; no link speed in this store: links coloured by throughput (Gb/s), not utilisation");
        else if (const QString note = countersNote(r, chosen); !note.isEmpty()) metricNote_ = QStringLiteral("; ") + note;
    }
    // A metric without counters in this store stays listed, disabled, and says why.
    if (auto* model = qobject_cast<QStandardItemModel*>(metricBox_->model()))
        for (int i = 0; i < metricBox_->count(); ++i) {
            const auto m = static_cast<LinkMetric>(metricBox_->itemData(i).toInt());
            const bool have = r.empty() || r.has(m);
            model->item(i)->setEnabled(have);
            model->item(i)->setToolTip(have ? QString() : tr("No counters for this metric in the store (no data)"));
        }
}

void MainWindow::setSnapshotOnViews() {
    fabric_->setSnapshot(snapshot_);
    jobs_->setSnapshot(snapshot_);
    inspector_->setSnapshot(snapshot_);
    charts_->setSnapshot(snapshot_);
    heatmap_->setSnapshot(snapshot_);
    annotations_->setSnapshot(snapshot_);
}

void MainWindow::focusFinding(const Finding& finding) {
    if (!snapshot_) return;
    const FindingFocus focus = focusOf(*snapshot_, finding);
    fabric_->frameNodes(focus.nodes);
    if (focus.primaryLink >= 0) selection_->selectLink(focus.primaryLink);
    else if (focus.primaryNode >= 0) selection_->selectNode(focus.primaryNode);
    fabric_->setFindingOverlay(focus);  // after the selection, whose change clears any earlier overlay
    time_->setTime(finding.start);
    statusBar()->showMessage(QString::fromStdString(finding.id + ": " + finding.summary));
}

void MainWindow::showSummary() {
    const StoreInfo& i = snapshot_->info;
    summary_->clear();
    auto row = [this](const QString& k, const QString& v) { new QTreeWidgetItem(summary_, {k, v}); };
    row(tr("Switches"), QString::number(i.switches));
    row(tr("CAs (host ports)"), QString::number(i.cas));
    row(tr("Routers"), QString::number(i.routers));
    row(tr("Connected ports"), QString::number(i.ports));
    row(tr("Links"), QString::number(i.links));
    row(tr("Counter series"), QString::number(i.series));
    row(tr("Unmapped series"), QString::number(i.unmappedSeries));
    row(tr("Samples"), QString::number(i.samples));
    if (i.timeStart)
        row(tr("Time span"), tr("%1 UTC (%2 s)").arg(utcSpanText(*i.timeStart, *i.timeEnd)).arg(*i.timeEnd - *i.timeStart, 0, 'f', 0));
    if (snapshot_->rates.step > 0) row(tr("Sample interval"), tr("%1 s").arg(snapshot_->rates.step));
    row(tr("Snapshots"), QString::number(i.snapshots.size()));
    summary_->resizeColumnToContents(0);
    imports_->setRowCount(static_cast<int>(i.imports.size()));
    for (int r = 0; r < static_cast<int>(i.imports.size()); ++r) {
        const auto& rec = i.imports[static_cast<std::size_t>(r)];
        imports_->setItem(r, 0, new QTableWidgetItem(qs(rec.file)));
        imports_->setItem(r, 1, new QTableWidgetItem(qs(rec.format)));
        imports_->setItem(r, 2, new QTableWidgetItem(QString::number(rec.rows)));
        imports_->setItem(r, 3, new QTableWidgetItem(utcText(rec.importedAt)));
        imports_->setItem(r, 4, new QTableWidgetItem(rec.nameKey ? qs(*rec.nameKey) : tr("not recorded (imported before schema 17)")));
        imports_->setItem(r, 5, new QTableWidgetItem(qs(rec.sha256)));
    }
}

// "Opened PATH", with the result of the import that led here, once.
QString MainWindow::openedMessage(const QString& path) {
    QString m = tr("Opened %1").arg(path);
    if (!lastImport_.isEmpty()) m += tr(" after the import: %1").arg(lastImport_);
    m += metricNote_;
    lastImport_.clear();
    metricNote_.clear();
    return m;
}

bool MainWindow::importBusy() {
    if (!importJob_->busy()) return false;
    statusBar()->showMessage(tr("An import is under way: wait for it to finish or cancel it first"));
    return true;
}

void MainWindow::importFiles(const QStringList& files, const QString& format) {
    if (importBusy()) return;
    if (storePath_.isEmpty()) {
        const QString path = QFileDialog::getSaveFileName(this, tr("Create a store for the import"),
                                                          QStringLiteral("fabric.sqlite"), tr("FabScope stores (*.sqlite)"));
        if (path.isEmpty()) return;
        storePath_ = path;
    }
    importJob_->importFiles(storePath_, files, format);
}

void MainWindow::showImportOutcome(const QString& storePath, const ImportOutcome& r) {
    diagnostics_->setDiagnostics(r.message, r.diagnostics);
    lastImport_ = r.message.section(QLatin1Char('\n'), 0, 0);  // kept in the status line after the reopen
    if (!r.ok) QMessageBox::warning(this, tr("Import"), r.message);
    else statusBar()->showMessage(r.message);
    openStore(storePath);
    Q_EMIT importFinished(r.ok);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList files;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) files << url.toLocalFile();
    if (files.size() == 1 && (files.front().endsWith(QStringLiteral(".sqlite")) || files.front().endsWith(QStringLiteral(".db"))))
        openStore(files.front());
    else if (!files.isEmpty())
        importFiles(files);
}

} // namespace fabscope
