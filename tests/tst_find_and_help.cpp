// Finding a node on the fabric by what an engineer has at hand (name, host, GUID, LID), the Help
// menu (F1 lists the shortcuts from the menus themselves, About), and `fabscope gui --help`
// printing help instead of opening a window.
#include "gui_fixture.h"
#include "core/analysis/finding_kind.h"
#include "core/report/report_data.h"
#include "core/report/report_writer.h"
#include "views/analysis_controller.h"
#include "views/fabric_view.h"
#include "views/findings_model.h"
#include "views/findings_panel.h"
#include "views/help_dialog.h"
#include "views/node_search.h"
#include "views/selection.h"
#include "views/store_snapshot.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace fabscope;

class TestFindAndHelp : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

    static void search(NodeSearchBox* box, const QString& text) {
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, text);
        QTest::keyClick(box, Qt::Key_Return);
    }

private Q_SLOTS:
    void initTestCase() {
        store_ = guitest::makeDemoStore(dir_);
        QVERIFY(!store_.isEmpty());
    }

    void findsANodeByNameGuidAndLid() {
        MainWindow w;
        w.show();
        QVERIFY(guitest::openAndWait(w, store_));
        const auto snap = w.snapshot();
        auto* box = w.findChild<NodeSearchBox*>();
        QVERIFY(box);
        QVERIFY(QTest::qWaitForWindowActive(&w));  // shortcuts reach the active window only
        auto* fabric = w.findChild<QWidget*>(QStringLiteral("fabricView"));
        // Ctrl+F (Find) puts the cursor in the box; typing a name and Enter selects the node.
        fabric->setFocus();
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QVERIFY(box->hasFocus());
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("LEAF02"));  // any case
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        const int leaf02 = int(snap->nodeByName.at("leaf02"));
        QCOMPARE(w.selection()->node(), leaf02);
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("match 1 of 1")));
        // ... and frames it: the view is centred on it.
        const auto framed = static_cast<FabricView*>(fabric)->nodePosition(leaf02);
        QVERIFY(framed);
        QVERIFY2(qAbs(framed->x() - fabric->width() / 2.0) < 2, qPrintable(QString::number(framed->x())));
        QVERIFY(box->placeholderText().contains(QStringLiteral("Ctrl+F")));

        // Ctrl+K still works, and selects the whole text so typing replaces it.
        fabric->setFocus();
        QTest::keyClick(&w, Qt::Key_K, Qt::ControlModifier);
        QVERIFY(box->hasFocus());
        QCOMPARE(box->selectedText(), QStringLiteral("LEAF02"));

        // Ctrl+Shift+F shows the Findings dock, even when it was closed, and focuses its table.
        auto* findingsDock = w.findChild<QDockWidget*>(QStringLiteral("findingsDock"));
        QVERIFY(findingsDock);
        findingsDock->close();
        QVERIFY(!findingsDock->isVisible());
        fabric->setFocus();
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(findingsDock->isVisible());
        QVERIFY(findingsDock->isAncestorOf(QApplication::focusWidget()));
        QVERIFY(!box->hasFocus());

        // A GUID as ibstat prints it: upper case, no 0x, leading zeros.
        const std::size_t host = snap->fabric.nodes.size() - 1;
        QString guid = QString::fromStdString(snap->fabric.nodes[host].guid).mid(2).toUpper();
        guid = QString(16 - guid.size(), u'0') + guid;
        search(box, guid);
        QCOMPARE(w.selection()->node(), int(host));

        // A port LID.
        int lid = 0, lidNode = -1;
        for (const Port& p : snap->fabric.ports)
            if (p.lid > 0 && snap->fabric.nodes[p.node.value()].type != NodeType::Switch) {
                lid = p.lid;
                lidNode = int(p.node.value());
                break;
            }
        QVERIFY(lid > 0);
        search(box, QString::number(lid));
        QCOMPARE(w.selection()->node(), lidNode);

        search(box, QStringLiteral("no-such-switch"));
        QVERIFY2(w.statusBar()->currentMessage().startsWith(QStringLiteral("No node matches")), qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(w.selection()->node(), lidNode);  // a miss keeps the selection
    }

    void f1ListsTheShortcutsOfTheMenus() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));  // shortcuts reach the active window only
        w.findChild<QWidget*>(QStringLiteral("fabricView"))->setFocus();
        QTest::keyClick(&w, Qt::Key_F1);
        auto* d = w.findChild<ShortcutsDialog*>();
        QVERIFY(d);
        QVERIFY(d->isVisible());
        for (const char* line : {"Ctrl+J  View > Job routes", "Ctrl+F, Ctrl+K  View > Find node…", "Ctrl+Shift+F  View > Go to findings", "Ctrl+,  Analysis > Thresholds…",
                                 "F1  Help > Keyboard shortcuts", "Space  Scrubber: play / pause"})
            QVERIFY2(d->text().contains(QString::fromUtf8(line)), line);
    }

    // Help > Finding kinds says what every kind means with the window's own thresholds, in the
    // words of the report's Methods section; the findings' Kind cells carry the one-line meaning.
    void findingKindsAreExplainedInTheApp() {
        MainWindow w;
        w.show();
        QVERIFY(guitest::openAndWait(w, store_));
        AnalysisConfig config;
        config.hotLink.util = 0.42;
        w.findChild<AnalysisController*>()->setConfig(config);
        w.findChild<QAction*>(QStringLiteral("findingKindsAction"))->trigger();
        auto* d = w.findChild<FindingKindsDialog*>();
        QVERIFY(d && d->isVisible());
        for (const auto& info : kFindingKinds)
            QVERIFY2(d->text().contains(QString::fromLatin1(info.name.data(), static_cast<qsizetype>(info.name.size())) + QStringLiteral(": ")),
                     info.name.data());
        QVERIFY2(d->text().contains(QStringLiteral("hot_link: A link direction at >= 42% of capacity")), qPrintable(d->text()));
        // The report's Methods section holds the same sentence.
        ReportOptions options;
        options.config = config;
        const ReportData data = buildReportData(Store(store_.toStdString(), Store::Mode::ReadOnly), options);
        const QString out = dir_.filePath(QStringLiteral("methods.html"));
        writeReport(data, ReportFormat::Html, out.toStdString());
        QFile html(out);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray page = html.readAll();
        QVERIFY(page.contains("A link direction at &gt;= 42% of capacity") || page.contains("A link direction at >= 42% of capacity"));

        auto* panel = w.findChild<FindingsPanel*>();
        QVERIFY(panel && panel->model()->rowCount() > 0);
        bool explained = false;
        for (int r = 0; r < panel->model()->rowCount(); ++r) {
            const QModelIndex kind = panel->model()->index(r, FindingsModel::Kind);
            if (kind.data().toString() == QStringLiteral("hot_link"))
                explained = kind.data(Qt::ToolTipRole).toString() ==
                            QStringLiteral("hot_link: a link direction near its capacity for several samples");
        }
        QVERIFY(explained);
    }

    void guiHelpPrintsHelpWithoutAWindow() {
        QProcess p;
        p.start(QStringLiteral(FABSCOPE_BIN), {QStringLiteral("gui"), QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(10000));  // a window would never finish
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().startsWith("usage: fabscope gui [STORE]"));
        p.start(QStringLiteral(FABSCOPE_BIN), {QStringLiteral("gui"), QStringLiteral("--bogus")});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 2);
    }
};

QTEST_MAIN(TestFindAndHelp)
#include "tst_find_and_help.moc"
