// What-if in the window (issue #22): right-click a link or a switch in the fabric, "What if this
// fails?" (or "runs at 1x?"), runs whatIf over the analysis window on the Prediction panel's
// background job; when it lands the fabric is coloured by the predicted Δ p95 utilisation
// (views/whatif_colouring.h) with the failed links dashed, and the Prediction dock lists the
// links turning hot, the hosts cut off and the jobs' slowdown. Esc or Leave prediction goes back
// to the metric's colours; Back to prediction (Ctrl+Z in the fabric or the dock, Ctrl+Shift+Z
// anywhere) undoes that. Opening another store ends it.
#include "app/main_window.h"
#include "views/analysis_controller.h"
#include "views/compare_panel.h"
#include "views/fabric_view.h"
#include "views/finding_focus.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/time_controller.h"
#include "views/whatif_panel.h"

#include "core/analysis/findings.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QShortcut>
#include <QStatusBar>

#include <algorithm>

namespace fabscope {
namespace {

// How the core is told a node: its description when no other node has it, else its GUID.
std::string nodeName(const StoreSnapshot& s, std::uint32_t node) {
    const Node& n = s.fabric.nodes[node];
    const auto same = std::count_if(s.fabric.nodes.begin(), s.fabric.nodes.end(), [&](const Node& o) { return o.description == n.description; });
    return same == 1 || n.guid.empty() ? n.description : n.guid;
}

// The end of a link that names it: the switch nearer the hosts (a leaf's uplink is "leaf01:20").
PortId namingEnd(const StoreSnapshot& s, int link) {
    const Link& l = s.fabric.links[static_cast<std::size_t>(link)];
    const auto rank = [&](PortId p) {
        const auto n = s.fabric.port(p).node.value();
        if (s.fabric.nodes[n].type != NodeType::Switch) return 1000;
        return n < s.tiers.size() ? s.tiers[n] : 999;
    };
    return rank(l.b) < rank(l.a) ? l.b : l.a;
}

} // namespace

void MainWindow::createWhatIfDock(QDockWidget* tabWith) {
    whatIf_ = new WhatIfPanel(this);
    predictionDock_ = addDock(tr("Prediction"), QStringLiteral("predictionDock"), whatIf_, Qt::RightDockWidgetArea);
    tabifyDockWidget(tabWith, predictionDock_);
    connect(whatIf_, &WhatIfPanel::entered, this, &MainWindow::enterWhatIf);
    connect(whatIf_, &WhatIfPanel::left, this, &MainWindow::leftWhatIf);
    connect(whatIf_, &WhatIfPanel::finished, this, [this](bool ok, const QString& message) {
        statusBar()->showMessage(message);
        Q_EMIT whatIfFinished(ok);
    });
    connect(whatIf_, &WhatIfPanel::linkActivated, this, [this](const std::vector<PortRef>& ports) {
        if (!snapshot_) return;
        Finding f;
        f.ports = ports;
        const FindingFocus focus = focusOf(*snapshot_, f);
        fabric_->frameNodes(focus.nodes);
        if (const int l = linkOfPorts(*snapshot_, ports); l >= 0) selection_->selectLink(l);
    });
    connect(fabric_, &FabricView::contextMenuRequested, this, &MainWindow::offerWhatIf);
    // Ctrl+Z where the prediction is looked at; the link charts keep their own Ctrl+Z (zoom back).
    for (QWidget* w : {static_cast<QWidget*>(fabric_), static_cast<QWidget*>(whatIf_)}) {
        auto* undo = new QShortcut(QKeySequence::Undo, w, whatIf_, &WhatIfPanel::back, Qt::WidgetWithChildrenShortcut);
        undo->setObjectName(QStringLiteral("backToPredictionShortcut"));
    }
}

void MainWindow::addWhatIfActions(QMenu* file) {
    leavePrediction_ = file->addAction(tr("Leave &prediction"), whatIf_, &WhatIfPanel::leave);
    leavePrediction_->setObjectName(QStringLiteral("leavePredictionAction"));
    leavePrediction_->setShortcut(QKeySequence(Qt::Key_Escape));
    leavePrediction_->setToolTip(tr("Back to the metric's colours (Esc); Back to prediction undoes it"));
    leavePrediction_->setEnabled(false);
    backToPrediction_ = file->addAction(tr("Back to p&rediction"), whatIf_, &WhatIfPanel::back);
    backToPrediction_->setObjectName(QStringLiteral("backToPredictionAction"));
    backToPrediction_->setShortcut(QKeySequence(tr("Ctrl+Shift+Z")));
    backToPrediction_->setToolTip(tr("The last prediction again (Ctrl+Z in the fabric, Ctrl+Shift+Z anywhere)"));
    backToPrediction_->setEnabled(false);
}

void MainWindow::offerWhatIf(QMenu* menu, int node, int link) {
    if (!snapshot_ || storePath_.isEmpty()) return;
    const StoreSnapshot& s = *snapshot_;
    auto predict = [this](std::vector<WhatIfChange> changes, const QString& what) {
        WhatIfRequest r;
        r.store = storePath_.toStdString();
        if (const auto w = time_->selection()) r.from = w->start, r.to = w->end;
        r.changes = std::move(changes);
        r.what = what;
        statusBar()->showMessage(tr("Predicting %1…").arg(what));
        whatIf_->run(r, analysis_->config());
    };
    if (node >= 0 && static_cast<std::size_t>(node) < s.fabric.nodes.size() && s.fabric.nodes[static_cast<std::size_t>(node)].type == NodeType::Switch) {
        const std::string name = nodeName(s, static_cast<std::uint32_t>(node));
        const QString label = QString::fromStdString(s.fabric.nodes[static_cast<std::size_t>(node)].description);
        QAction* a = menu->addAction(tr("What if this switch fails?"), this, [predict, name, label] {
            predict({WhatIfChange{WhatIfChange::Fail, name, {}, {}}}, tr("what if %1 fails").arg(label));
        });
        a->setObjectName(QStringLiteral("whatIfSwitchFails"));
        a->setToolTip(tr("Predict where %1's load goes and which links turn hot (not a measurement)").arg(label));
    }
    if (link >= 0 && static_cast<std::size_t>(link) < s.fabric.links.size()) {
        const PortId end = namingEnd(s, link);
        const Port& port = s.fabric.port(end);
        const std::string name = nodeName(s, port.node.value());
        const QString label = QString::fromStdString(s.fabric.node(port.node).description + ":" + port.name);
        QAction* a = menu->addAction(tr("What if this link fails?"), this, [predict, name, port = port.name, label] {
            predict({WhatIfChange{WhatIfChange::Fail, name, port, {}}}, tr("what if %1 fails").arg(label));
        });
        a->setObjectName(QStringLiteral("whatIfLinkFails"));
        a->setToolTip(tr("Predict where %1's load goes and which links turn hot (not a measurement)").arg(label));
        const Link& l = s.fabric.links[static_cast<std::size_t>(link)];
        if (l.width.value_or(1) > 1 && !l.speed.empty() && l.speed != "???") {
            const std::string ws = "1x" + l.speed;
            QAction* d = menu->addAction(tr("What if this link runs at 1x?"), this, [predict, name, port = port.name, label, ws] {
                predict({WhatIfChange{WhatIfChange::Degrade, name, port, ws}}, tr("what if %1 runs at %2").arg(label, QString::fromStdString(ws)));
            });
            d->setObjectName(QStringLiteral("whatIfLinkAt1x"));
        }
    }
}

void MainWindow::enterWhatIf(std::shared_ptr<const WhatIfResult> result) {
    if (!snapshot_) return;
    if (compare_->active()) compare_->leave();  // one mode at a time
    fabric_->setCompareColouring(std::make_shared<const WhatIfColouring>(result, *snapshot_));
    predictionDock_->show();
    predictionDock_->raise();
    // Esc leaves the prediction; the window's other Esc actions (the scrubber's Clear window) wait.
    if (escActionsHeld_.isEmpty())
        for (QAction* a : findChildren<QAction*>())
            if (a != leavePrediction_ && a->isEnabled() && a->shortcuts().contains(QKeySequence(Qt::Key_Escape))) {
                a->setEnabled(false);
                escActionsHeld_.append(a);
            }
    leavePrediction_->setEnabled(true);
    backToPrediction_->setEnabled(false);
    setWindowTitle(tr("FabScope — %1").arg(whatIfTitle(*result)));
}

void MainWindow::leftWhatIf() {
    fabric_->setCompareColouring(nullptr);
    for (QAction* a : escActionsHeld_) a->setEnabled(true);
    escActionsHeld_.clear();
    leavePrediction_->setEnabled(false);
    backToPrediction_->setEnabled(whatIf_->result() != nullptr);
    if (snapshot_) setWindowTitle(tr("FabScope — %1").arg(QFileInfo(QString::fromStdString(snapshot_->path)).fileName()));
    if (whatIf_->result()) statusBar()->showMessage(tr("Left the prediction; Back to prediction (Ctrl+Z in the fabric) shows it again."));
}

} // namespace fabscope
