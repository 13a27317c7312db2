// One analysis for the GUI, the CLI and the report: a newer analysis window cancels the run under
// way (it stops early and its result never reaches the findings list), and the thresholds edited
// in Analysis > Thresholds… are the ones `fabscope analyze` reads by default.
#include "gui_fixture.h"
#include "core/analysis/analysis_config.h"
#include "core/analysis/findings.h"
#include "views/analysis_controller.h"
#include "views/findings_model.h"
#include "views/findings_panel.h"
#include "views/settings_dialog.h"
#include "views/time_controller.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace fabscope;

class TestAnalysisSession : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

    static QStringList kindsShown(FindingsPanel* panel) {
        QStringList kinds;
        for (int r = 0; r < panel->model()->rowCount(); ++r)
            kinds << panel->model()->index(r, FindingsModel::Kind).data().toString();
        kinds.sort();
        return kinds;
    }

    // `fabscope analyze --db STORE --json` as a user runs it, with this process' HOME and XDG paths.
    QStringList cliKinds() {
        QProcess p;
        p.start(QStringLiteral(FABSCOPE_BIN), {QStringLiteral("analyze"), QStringLiteral("--db"), store_, QStringLiteral("--json")});
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            qWarning("%s", p.readAllStandardError().constData());
            return {QStringLiteral("cli failed")};
        }
        QStringList kinds;
        for (const auto& f : QJsonDocument::fromJson(p.readAllStandardOutput()).object()[QStringLiteral("findings")].toArray())
            kinds << f.toObject()[QStringLiteral("kind")].toString();
        kinds.sort();
        return kinds;
    }

private Q_SLOTS:
    void initTestCase() {
        store_ = guitest::makeDemoStore(dir_);
        QVERIFY(!store_.isEmpty());
    }

    void aNewerWindowCancelsTheStaleAnalysis() {
        MainWindow w;
        w.show();
        QVERIFY(guitest::openAndWait(w, store_));
        auto* controller = w.findChild<AnalysisController*>();
        auto* panel = w.findChild<FindingsPanel*>();
        QVERIFY(controller && panel);
        // Let the window's own analyses after the open (and its debounced re-analysis) end first:
        // under load they may still run, and would count as cancelled runs of their own.
        QTest::qWait(400);
        QTRY_VERIFY_WITH_TIMEOUT(!controller->job()->busy(), 30000);
        const auto span = w.timeController()->span();
        const TimeRange first{span.start, span.end}, second{span.start, span.start + (span.end - span.start) / 4};
        QSignalSpy finished(controller, &AnalysisController::finished);
        QSignalSpy cancelled(controller, &AnalysisController::cancelled);
        const int before = controller->cancelledRuns(), droppedBefore = controller->job()->droppedResults();
        controller->run(store_, first);
        controller->run(store_, second);  // the user moved the window while the first ran
        QVERIFY(finished.wait(30000));
        // The first run stopped early at its next check, or, when a loaded machine let it finish
        // before the second request (CI saw this), its stale result was dropped; either way it
        // lands once and is never shown (it may have waited for a pool thread, so give it time).
        QTRY_COMPARE_WITH_TIMEOUT(controller->cancelledRuns() - before + controller->job()->droppedResults() - droppedBefore, 1, 30000);
        QCOMPARE(cancelled.count(), controller->cancelledRuns() - before);
        QTest::qWait(100);
        QCOMPARE(finished.count(), 1);  // only the newer window's result was delivered
        QCOMPARE(panel->model()->report()->windowEnd, second.end);  // the list shows the newer window
    }

    void thresholdsEditedInTheGuiAreTheClisDefault() {
        MainWindow w;
        w.show();
        QVERIFY(guitest::openAndWait(w, store_));
        auto* panel = w.findChild<FindingsPanel*>();
        const QStringList defaults = kindsShown(panel);
        QCOMPARE(cliKinds(), defaults);  // no file yet: both use the defaults

        w.findChild<QAction*>(QStringLiteral("thresholdsAction"))->trigger();
        auto* dialog = w.findChild<SettingsDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        // A typo is refused and saves nothing.
        dialog->editor()->setPlainText(QStringLiteral(R"({"hot_link": {"utill": 0.1}})"));
        QTest::mouseClick(ok, Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        QVERIFY2(dialog->findChild<QLabel*>(QStringLiteral("configError"))->text().contains(QStringLiteral("utill")),
                 qPrintable(dialog->findChild<QLabel*>(QStringLiteral("configError"))->text()));
        QVERIFY(!QFile::exists(QString::fromStdString(userConfigPath())));

        // Every direction above 5 % is hot: more hot links, in the GUI and in the CLI alike.
        QSignalSpy analysed(&w, &MainWindow::analysisFinished);
        dialog->editor()->setPlainText(QStringLiteral(R"({"hot_link": {"util": 0.05, "min_samples": 1}})"));
        QTest::mouseClick(ok, Qt::LeftButton);
        QVERIFY(QFile::exists(QString::fromStdString(userConfigPath())));
        QVERIFY(analysed.wait(30000));
        const QStringList edited = kindsShown(panel);
        QVERIFY2(edited.count(QStringLiteral("hot_link")) > defaults.count(QStringLiteral("hot_link")), qPrintable(edited.join(u',')));
        QCOMPARE(cliKinds(), edited);
        QFile::remove(QString::fromStdString(userConfigPath()));
    }
};

QTEST_MAIN(TestAnalysisSession)
#include "tst_analysis_session.moc"
