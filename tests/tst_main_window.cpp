// The window a user sees: it opens the demo store, shows the fabric with the demo's faults in the
// findings dock, and clicking a finding lands on its ports at its start time.
#include "screenshot.h"
#include "app/main_window.h"
#include "core/analysis/findings.h"
#include "core/demo_fabric.h"
#include "importers/import_runner.h"
#include "views/analysis_controller.h"
#include "views/fabric_view.h"
#include "views/findings_model.h"
#include "views/findings_panel.h"
#include "views/selection.h"
#include "views/time_controller.h"
#include "views/utc_text.h"

#include <QAbstractItemModelTester>
#include <QInputDialog>
#include <QSignalSpy>
#include <QLabel>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QTimer>
#include <QStatusBar>
#include <QtTest>

using namespace fabscope;

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

    QString summaryValue(MainWindow& w, const QString& key) {
        auto* tree = w.findChild<QTreeWidget*>(QStringLiteral("summary"));
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            if (tree->topLevelItem(i)->text(0) == key) return tree->topLevelItem(i)->text(1);
        return {};
    }

    void openDemo(MainWindow& w) {
        QSignalSpy analysed(&w, &MainWindow::analysisFinished);
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        w.openStore(store_);
        QVERIFY(loaded.wait(20000));
        QVERIFY(analysed.count() > 0 || analysed.wait(30000));
    }

    int rowOfKind(QTableView* table, const QString& kind) {
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()->index(r, FindingsModel::Kind).data().toString() == kind) return r;
        return -1;
    }

private Q_SLOTS:
    void initTestCase() {
        const std::string demo = dir_.filePath(QStringLiteral("demo")).toStdString();
        store_ = dir_.filePath(QStringLiteral("demo.sqlite"));
        writeDemo(demo, {});
        Store s(store_.toStdString());
        ImporterRegistry reg;
        ImportRunner(s, reg).run({demo}, {});
    }

    void opensTheDemoStoreWithItsFaultsInTheFindingsDock() {
        MainWindow w;
        w.show();
        openDemo(w);
        QCOMPARE(summaryValue(w, QStringLiteral("Switches")), QStringLiteral("12"));
        QCOMPARE(summaryValue(w, QStringLiteral("Links")), QStringLiteral("96"));
        QVERIFY(w.windowTitle().contains(QStringLiteral("demo.sqlite")));
        auto* panel = w.findChild<FindingsPanel*>();
        QVERIFY(panel);
        QAbstractItemModelTester tester(panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(panel->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (const QString& kind : {QStringLiteral("hot_link"), QStringLiteral("degraded_link"), QStringLiteral("error_link")})
            QVERIFY2(rowOfKind(panel->table(), kind) >= 0, qPrintable(kind));
        // The time slider spans the demo: 60 samples at 10 s.
        auto* slider = w.findChild<QSlider*>(QStringLiteral("timeSlider"));
        QVERIFY(slider && slider->isEnabled());
        QCOMPARE(slider->maximum(), 59);
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-main.png")));
    }

    // A large store's fabric is drawn before its link rates load; what the user does meanwhile
    // (select a link, move the cursor) survives the rates arriving.
    void theFabricIsShownBeforeTheRatesAndTheUsersChoicesSurviveThem() {
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::fabricShown);
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        w.openStore(store_);
        QVERIFY(shown.wait(20000));
        QCOMPARE(loaded.count(), 0);
        QVERIFY(w.snapshot()->rates.empty());
        QCOMPARE(w.snapshot()->fabric.links.size(), std::size_t{96});
        w.selection()->selectLink(5);
        const double t = w.timeController()->span().start + 100;
        w.timeController()->setTime(t);
        QVERIFY(loaded.count() > 0 || loaded.wait(20000));
        QVERIFY(!w.snapshot()->rates.empty());
        QCOMPARE(w.selection()->link(), 5);
        QCOMPARE(w.findChild<FabricView*>()->selectedLink(), 5);
        QCOMPARE(w.timeController()->time(), t);
        auto* slider = w.findChild<QSlider*>(QStringLiteral("timeSlider"));
        QCOMPARE(slider->maximum(), 59);  // the 10 s step arrived with the rates
    }

    void clickingTheHotLinkFindingSelectsItsLinkAndMovesTheCursor() {
        MainWindow w;
        w.show();
        openDemo(w);
        auto* panel = w.findChild<FindingsPanel*>();
        auto* fabric = w.findChild<FabricView*>();
        QTableView* table = panel->table();
        const int row = rowOfKind(table, QStringLiteral("hot_link"));
        QVERIFY(row >= 0);
        const Finding* f = panel->model()->finding(panel->proxy()->mapToSource(table->model()->index(row, 0)).row());
        QVERIFY(f);
        QCOMPARE(w.timeController()->time(), w.timeController()->span().start);
        QVERIFY(fabric->selectedLink() < 0);
        const QRect cell = table->visualRect(table->model()->index(row, FindingsModel::Summary));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        // The cursor is at the finding's start and its link (leaf02 p9 -> spine01) is selected.
        QCOMPARE(w.timeController()->time(), f->start);
        const int link = fabric->selectedLink();
        QVERIFY(link >= 0);
        const auto snap = w.snapshot();
        const QString label = QString::fromStdString(snap->linkLabel(LinkId(static_cast<std::size_t>(link))));
        QVERIFY2(label.contains(QStringLiteral("leaf02 p9")) && label.contains(QStringLiteral("spine01")), qPrintable(label));
        // Once the zoomed frame is drawn, the link shows hot (red) at the finding's start.
        QTRY_VERIFY(fabric->frameIsCurrent());
        const auto pixel = fabric->pixelOfLink(link);
        QVERIFY(pixel);
        const QColor shown = fabric->grab().toImage().pixelColor(*pixel);
        QVERIFY2(shown.red() > 180 && shown.green() < 90, qPrintable(shown.name()));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-hot-finding.png")));

        // The degraded host link: framing unfolds the hosts so its host end is drawn.
        const int drow = rowOfKind(table, QStringLiteral("degraded_link"));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(drow, FindingsModel::Summary)).center());
        QVERIFY(!fabric->hostsFolded());
        const int dlink = fabric->selectedLink();
        QVERIFY(dlink >= 0);
        QVERIFY(QString::fromStdString(snap->linkLabel(LinkId(static_cast<std::size_t>(dlink)))).contains(QStringLiteral("leaf03 p5")));
        QVERIFY(fabric->nodePosition(static_cast<int>(snap->fabric.port(snap->fabric.links[static_cast<std::size_t>(dlink)].a).node.value())));
        QTRY_VERIFY(fabric->frameIsCurrent());
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-degraded-finding.png")));
    }

    // Opening a store analyses it once: the cursor's reset on the load asks for no new window, so
    // a finding clicked after the open stays selected (a second run reset the list, ~300 ms later).
    void aSelectedFindingStaysSelectedWhileItIsInTheWindow() {
        MainWindow w;
        w.show();
        auto* controller = w.findChild<AnalysisController*>();
        QVERIFY(controller);
        QSignalSpy started(controller, &AnalysisController::started);
        openDemo(w);
        QTableView* table = w.findChild<FindingsPanel*>()->table();
        const int row = rowOfKind(table, QStringLiteral("hot_link"));
        QVERIFY(row >= 0);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(row, FindingsModel::Summary)).center());
        QTest::qWait(600);  // past the debounce of a window change (300 ms)
        QTRY_VERIFY_WITH_TIMEOUT(!controller->job()->busy(), 30000);
        QCOMPARE(started.count(), 1);
        const QModelIndexList selected = table->selectionModel()->selectedRows(FindingsModel::Kind);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.front().data().toString(), QStringLiteral("hot_link"));
        // A new window is analysed again once the user stops dragging. The finding selected stays
        // selected when the new window still holds it, and the cursor stays where the user left it.
        const double cursor = w.timeController()->time() + 20;
        w.timeController()->setTime(cursor);
        QSignalSpy analysed(&w, &MainWindow::analysisFinished);
        const auto span = w.timeController()->span();
        const double end = span.start + (span.end - span.start) / 2;  // the hot stretch starts at +200 s
        w.timeController()->setSelection(TimeRange{span.start, end});
        QVERIFY(analysed.wait(30000));
        QCOMPARE(started.count(), 2);
        QCOMPARE(w.findChild<FindingsPanel*>()->model()->report()->windowEnd, end);
        const QModelIndexList again = table->selectionModel()->selectedRows(FindingsModel::Kind);
        QCOMPARE(again.size(), 1);
        QCOMPARE(again.front().data().toString(), QStringLiteral("hot_link"));
        QCOMPARE(w.timeController()->time(), cursor);
    }

    // View > Go to time… (Ctrl+T) takes a time as a log or a report gives it.
    void goToTimeMovesTheCursorToATypedTime() {
        MainWindow w;
        w.show();
        openDemo(w);
        auto* bar = w.findChild<QStatusBar*>();
        auto typeTime = [&](const QString& text) {
            QTest::keyClick(&w, Qt::Key_T, Qt::ControlModifier);
            auto* dialog = w.findChild<QInputDialog*>(QStringLiteral("goToTimeDialog"));
            if (!dialog) return false;
            const bool prefilled = dialog->textValue() == utcText(w.timeController()->time());
            dialog->setTextValue(text);
            dialog->accept();
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);  // the dialog goes
            return prefilled;
        };
        QVERIFY(typeTime(QStringLiteral("2023-11-14 22:16:40 UTC")));  // the hot stretch's start
        QCOMPARE(w.timeController()->time(), 1700000200.0);
        QVERIFY(typeTime(QStringLiteral("2023-11-14T23:18:00+01:00")));
        QCOMPARE(w.timeController()->time(), 1700000280.0);
        QVERIFY(typeTime(QStringLiteral("22:15:00")));  // a time of day: the store's day
        QCOMPARE(w.timeController()->time(), 1700000100.0);
        QVERIFY(typeTime(QStringLiteral("1700000500")));
        QCOMPARE(w.timeController()->time(), 1700000500.0);
        QVERIFY(typeTime(QStringLiteral("2023-11-15 09:00:00")));  // after the span: the cursor stays
        QCOMPARE(w.timeController()->time(), 1700000500.0);
        QVERIFY2(bar->currentMessage().contains(QStringLiteral("outside the store's span")), qPrintable(bar->currentMessage()));
        QVERIFY(typeTime(QStringLiteral("yesterday")));
        QCOMPARE(w.timeController()->time(), 1700000500.0);
        QVERIFY2(bar->currentMessage().startsWith(QStringLiteral("Not a time")), qPrintable(bar->currentMessage()));
    }

    void steppingTheCursorRecoloursTheHotLink() {
        MainWindow w;
        w.show();
        openDemo(w);
        auto* fabric = w.findChild<FabricView*>();
        const auto snap = w.snapshot();
        int hot = -1;
        for (std::size_t i = 0; i < snap->fabric.links.size(); ++i) {
            const std::string label = snap->linkLabel(LinkId(i));
            if (label.find("leaf02 p9") != std::string::npos && label.find("spine01") != std::string::npos) hot = static_cast<int>(i);
        }
        QVERIFY(hot >= 0);
        fabric->setFocus();
        fabric->renderFrame();
        const auto pixel = fabric->pixelOfLink(hot);
        QVERIFY(pixel);
        // At the start the link runs at ~15-40 %; in the hot stretch (samples 21-35) at ~95 %.
        const QColor cold = fabric->grab().toImage().pixelColor(*pixel);
        for (int i = 0; i < 25; ++i) QTest::keyClick(&w, Qt::Key_Right);  // Right steps the cursor
        QCOMPARE(w.timeController()->time(), w.timeController()->span().start + 250);
        QVERIFY(fabric->linkValue(hot) > 90);
        const QColor warm = fabric->grab().toImage().pixelColor(*pixel);
        QVERIFY2(cold != warm, qPrintable(cold.name() + QStringLiteral(" ") + warm.name()));
        QVERIFY2(warm.red() > 180 && warm.green() < 90, qPrintable(warm.name()));  // red: hot
        QVERIFY2(cold.red() < 160, qPrintable(cold.name()));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-cursor-hot.png")));
    }

    void droppedFilesAreImported() {
        QTemporaryDir tmp;
        const std::string demo = tmp.filePath(QStringLiteral("files")).toStdString();
        writeDemo(demo, {});
        const QString store = tmp.filePath(QStringLiteral("dropped.sqlite"));
        MainWindow w;
        w.show();
        {
            Store s(store.toStdString());  // an empty store to import into
        }
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        w.openStore(store);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(summaryValue(w, QStringLiteral("Links")), QStringLiteral("0"));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(demo) + QStringLiteral("/topology.ibnetdiscover"))});
        QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, {});
        QSignalSpy imported(&w, &MainWindow::importFinished);
        QApplication::sendEvent(&w, &drop);
        const bool done = imported.wait(20000);
        if (!done)
            if (auto* m = QApplication::activeModalWidget()) qWarning() << "modal:" << m << m->findChildren<QLabel*>().value(1)->text();
        QVERIFY(done);
        QCOMPARE(imported.front().front().toBool(), true);
        QVERIFY(loaded.wait(20000));
        QCOMPARE(summaryValue(w, QStringLiteral("Links")), QStringLiteral("96"));
        // No stale "Importing..." dialog pops up once its 300 ms minimum duration has passed.
        QTest::qWait(600);
        for (auto* d : w.findChildren<QProgressDialog*>()) QVERIFY2(!d->isVisible(), qPrintable(d->labelText()));
        // The import's result stays in the status line after the store is reopened.
        QTRY_VERIFY_WITH_TIMEOUT(w.statusBar()->currentMessage().contains(QStringLiteral("after the import: 1 imported")), 20000);
    }

    void failedImportShowsItsMessageWithoutAStaleProgressDialog() {
        QTemporaryDir tmp;
        const QString store = tmp.filePath(QStringLiteral("s.sqlite"));
        { Store s(store.toStdString()); }
        const QString bad = tmp.filePath(QStringLiteral("broken.txt"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("Switch 36 \"S-0002c9030001\"  # \"sw\"\n[1]  garbage\n");
        }
        MainWindow w;
        w.show();
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        w.openStore(store);
        QVERIFY(loaded.wait(10000));
        // While the warning is up (a nested event loop), look for a progress dialog that popped
        // up after its 300 ms minimum duration, then close the warning.
        bool sawWarning = false, staleDialog = false;
        int ticksWithBox = 0;
        QTimer poll;
        connect(&poll, &QTimer::timeout, [&] {
            QMessageBox* box = nullptr;
            for (auto* top : QApplication::topLevelWidgets())
                if (auto* b = qobject_cast<QMessageBox*>(top); b && b->isVisible()) box = b;
            if (!box) return;
            sawWarning = true;
            if (++ticksWithBox < 8) return;
            for (auto* d : w.findChildren<QProgressDialog*>()) staleDialog = staleDialog || d->isVisible();
            box->accept();
        });
        poll.start(100);
        QSignalSpy imported(&w, &MainWindow::importFinished);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(bad)});
        QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(&w, &enter);
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(&w, &drop);
        QVERIFY(imported.wait(20000));
        QCOMPARE(imported.front().front().toBool(), false);
        QVERIFY(sawWarning);
        QVERIFY(!staleDialog);
    }

    void brokenStoreShowsNoFabricButDoesNotCrash() {
        QFile f(dir_.filePath(QStringLiteral("broken.sqlite")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(2048, 'z'));
        f.close();
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        auto closer = new QTimer(&w);  // the error dialog is modal; close it as soon as it appears
        QObject::connect(closer, &QTimer::timeout, [] {
            if (auto* m = QApplication::activeModalWidget()) m->close();
        });
        closer->start(50);
        w.openStore(f.fileName());
        QVERIFY(loaded.wait(10000));
        QVERIFY(!w.snapshot());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
