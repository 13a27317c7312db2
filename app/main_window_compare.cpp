// Compare mode (issue #19): File > Compare… runs a comparison of a good and a bad run on the
// Changes panel's background job; when it lands the fabric is coloured by Δ p95 utilisation
// (views/compare_colouring.h), the Changes dock lists the changes (a click selects and frames
// the link), and the link charts dock shows the good and the bad window side by side. Esc or
// Leave compare goes back to the normal colouring; Back to compare undoes that.
#include "app/main_window.h"
#include "views/analysis_controller.h"
#include "views/compare_charts.h"
#include "views/compare_colouring.h"
#include "views/compare_dialog.h"
#include "views/compare_panel.h"
#include "views/fabric_view.h"
#include "views/heatmap_view.h"
#include "views/keyboard_handback.h"
#include "views/link_charts_panel.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/time_controller.h"
#include "views/whatif_panel.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QStackedWidget>
#include <QStatusBar>

namespace fabscope {
namespace {

// The two ends of a link of the shown fabric, as the compare core names ports.
std::vector<PortRef> portsOfLink(const StoreSnapshot& s, int link) {
    if (link < 0 || static_cast<std::size_t>(link) >= s.fabric.links.size()) return {};
    std::vector<PortRef> out;
    for (PortId p : {s.fabric.links[static_cast<std::size_t>(link)].a, s.fabric.links[static_cast<std::size_t>(link)].b}) {
        const Port& port = s.fabric.port(p);
        const Node& node = s.fabric.node(port.node);
        out.push_back({node.description, node.guid, port.name});
    }
    return out;
}

} // namespace

void MainWindow::createCompareDock(QDockWidget* tabWith, QDockWidget* chartsDock) {
    compare_ = new ComparePanel(this);
    changesDock_ = addDock(tr("Changes"), QStringLiteral("changesDock"), compare_, Qt::RightDockWidgetArea);
    tabifyDockWidget(tabWith, changesDock_);
    // The link charts dock holds the compare charts too: shown instead in compare mode.
    compareCharts_ = new CompareCharts(this);
    chartsStack_ = new QStackedWidget(this);
    chartsStack_->setObjectName(QStringLiteral("linkChartsStack"));
    chartsStack_->addWidget(charts_);
    chartsStack_->addWidget(compareCharts_);
    chartsDock->setWidget(chartsStack_);

    connect(compare_, &ComparePanel::entered, this, &MainWindow::enterCompare);
    connect(compare_, &ComparePanel::left, this, &MainWindow::leftCompare);
    connect(compare_, &ComparePanel::finished, this, [this](bool ok, const QString& message) {
        statusBar()->showMessage(message);
        Q_EMIT compareFinished(ok);
    });
    connect(compare_, &ComparePanel::changeActivated, this, [this](const Change& change) {
        if (!snapshot_) return;
        const FindingFocus focus = focusOfChange(*snapshot_, change);
        fabric_->frameNodes(focus.nodes);
        if (focus.primaryLink >= 0) selection_->selectLink(focus.primaryLink);
        else if (focus.primaryNode >= 0 && change.ports.empty()) selection_->selectNode(focus.primaryNode);
        else selection_->clear();  // a removed link: its two ends are framed and ringed
        fabric_->setFindingOverlay(focus);  // after the selection, whose change clears the overlay
        compareCharts_->setPorts(change.ports);
        statusBar()->showMessage(QString::fromStdString(change.summary));
    });
    // In compare mode the compare charts follow the selection like the link charts do.
    connect(selection_, &SelectionController::changed, this, [this] {
        if (compare_->active() && snapshot_) compareCharts_->setPorts(portsOfLink(*snapshot_, linkOfSelection(*selection_, snapshot_.get())));
    });
}

void MainWindow::addCompareActions(QMenu* file) {
    QAction* compare = file->addAction(tr("&Compare…"), this, [this] {
        if (!snapshot_) {
            statusBar()->showMessage(tr("Open a store first: Compare compares it with another run, or two of its windows."));
            return;
        }
        auto* dialog = new CompareDialog(storePath_, snapshot_->timeSpan(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        handKeyboardBackWhenHidden(dialog);  // Esc right after the comparison lands reaches Leave compare
        connect(dialog, &QDialog::accepted, this, [this, dialog] { compareWith(dialog->request()); });
        dialog->open();
    });
    compare->setObjectName(QStringLiteral("compareAction"));
    compare->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    compare->setToolTip(tr("Compare the open store with a good or bad run, or two of its time windows (Ctrl+Shift+C)"));
    leaveCompare_ = file->addAction(tr("&Leave compare"), compare_, &ComparePanel::leave);
    leaveCompare_->setObjectName(QStringLiteral("leaveCompareAction"));
    leaveCompare_->setShortcut(QKeySequence(Qt::Key_Escape));
    leaveCompare_->setToolTip(tr("Back to the normal colouring (Esc); Back to compare undoes it"));
    leaveCompare_->setEnabled(false);
    backToCompare_ = file->addAction(tr("&Back to compare"), compare_, &ComparePanel::back);
    backToCompare_->setObjectName(QStringLiteral("backToCompareAction"));
    backToCompare_->setShortcut(QKeySequence(tr("Ctrl+Shift+B")));
    backToCompare_->setToolTip(tr("Compare mode again with the last comparison (Ctrl+Shift+B)"));
    backToCompare_->setEnabled(false);
}

void MainWindow::compareWith(const CompareRequest& request) {
    statusBar()->showMessage(tr("Comparing…"));
    compare_->run(request, analysis_->config(), snapshot_);
}

void MainWindow::enterCompare(std::shared_ptr<const CompareResult> result) {
    if (!snapshot_) return;
    whatIf_->leave();  // one mode at a time: they share the fabric's colouring and Esc
    // The shown side as the comparison loaded it (with its rates; the same fabric as the view's).
    const StoreSnapshot& shown = *(result->shownIsBad ? result->bad : result->good);
    fabric_->setCompareColouring(std::make_shared<const CompareColouring>(result, shown));
    // The heatmap stays per store: it says what it shows, so no one reads it as the change. Two
    // windows of the open store are both in it.
    const CompareReport& r = result->report;
    heatmap_->setModeNote(r.good.store == r.bad.store
                              ? tr("Compare mode: the heatmap shows both windows of this store, not the change")
                              : tr("Compare mode: the heatmap shows the %1 run only, not the change (%2)")
                                    .arg(result->shownIsBad ? tr("bad") : tr("good"), compareSideLabel(result->shownIsBad ? r.bad : r.good)));
    // The compared windows marked on its time axis: both of one store, else the shown run's.
    const HeatmapView::MarkedWindow good{r.good.start, r.good.end, tr("good"), QColor(30, 120, 60)};
    const HeatmapView::MarkedWindow bad{r.bad.start, r.bad.end, tr("bad"), QColor(170, 20, 30)};
    if (r.good.store == r.bad.store) heatmap_->setMarkedWindows({good, bad});
    else heatmap_->setMarkedWindows({result->shownIsBad ? bad : good});
    compareCharts_->setResult(result);
    compareCharts_->setPorts(portsOfLink(*snapshot_, linkOfSelection(*selection_, snapshot_.get())));
    chartsStack_->setCurrentWidget(compareCharts_);
    changesDock_->show();
    changesDock_->raise();
    // Esc leaves compare mode; the window's other Esc actions (the scrubber's Clear window) wait.
    if (escActionsHeld_.isEmpty())
        for (QAction* a : findChildren<QAction*>())
            if (a != leaveCompare_ && a->isEnabled() && a->shortcuts().contains(QKeySequence(Qt::Key_Escape))) {
                a->setEnabled(false);
                escActionsHeld_.append(a);
            }
    leaveCompare_->setEnabled(true);
    backToCompare_->setEnabled(false);
    setWindowTitle(tr("FabScope — %1").arg(compareTitle(result->report)));
}

void MainWindow::leftCompare() {
    fabric_->setCompareColouring(nullptr);
    fabric_->clearFindingOverlay();
    heatmap_->setModeNote({});
    heatmap_->setMarkedWindows({});
    chartsStack_->setCurrentWidget(charts_);
    for (QAction* a : escActionsHeld_) a->setEnabled(true);
    escActionsHeld_.clear();
    leaveCompare_->setEnabled(false);
    backToCompare_->setEnabled(compare_->result() != nullptr);
    if (snapshot_) setWindowTitle(tr("FabScope — %1").arg(QFileInfo(QString::fromStdString(snapshot_->path)).fileName()));
    if (compare_->result()) statusBar()->showMessage(tr("Left compare mode; Back to compare (Ctrl+Shift+B) shows it again."));
}

} // namespace fabscope
