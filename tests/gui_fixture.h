#pragma once
// What the main-window tests share: the demo store (the demo fabric with its known faults),
// imported once per test process, and opening a store in a window and waiting until it shows.
#include "app/main_window.h"
#include "core/demo_fabric.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QSignalSpy>
#include <QTemporaryDir>

namespace guitest {

// `dir`/demo.sqlite made from the demo files; empty when the import failed.
inline QString makeDemoStore(const QTemporaryDir& dir) {
    const std::string demo = dir.filePath(QStringLiteral("demo")).toStdString();
    const QString store = dir.filePath(QStringLiteral("demo.sqlite"));
    fabscope::writeDemo(demo, {});
    fabscope::Store s(store.toStdString());
    fabscope::ImporterRegistry reg;
    return fabscope::ImportRunner(s, reg).run({demo}, {}).anyFailed() ? QString() : store;
}

// Opens `store` and waits for its rates, and for its first analysis when `analysis` is set.
inline bool openAndWait(fabscope::MainWindow& w, const QString& store, bool analysis = true) {
    QSignalSpy analysed(&w, &fabscope::MainWindow::analysisFinished);
    QSignalSpy loaded(&w, &fabscope::MainWindow::storeLoaded);
    w.openStore(store);
    if (!loaded.wait(20000)) return false;
    return !analysis || analysed.count() > 0 || analysed.wait(30000);
}

} // namespace guitest
