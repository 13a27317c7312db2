// The window as a new user sees it at 1400x900: the findings dock shows ten rows with every
// column, no dock tab's title is cut, the annotation editor is wide enough to type in, and View >
// Reset layout brings back a dock the user closed, at its size.
#include "gui_fixture.h"
#include "screenshot.h"
#include "views/findings_model.h"
#include "views/findings_panel.h"

#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QTabBar>
#include <QTableView>
#include <QtTest>

using namespace fabscope;

class TestDefaultLayout : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

private Q_SLOTS:
    void initTestCase() {
        QSettings().clear();  // no saved layout: the default one
        store_ = guitest::makeDemoStore(dir_);
        QVERIFY(!store_.isEmpty());
    }

    void findingsShowTenRowsWithEveryColumnAt1400x900() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, store_));
        QTableView* table = w.findChild<FindingsPanel*>()->table();
        QVERIFY(table->isVisible());
        const int rowHeight = table->verticalHeader()->defaultSectionSize();
        QVERIFY2(table->viewport()->height() >= 10 * rowHeight,
                 qPrintable(QStringLiteral("%1 px for rows of %2 px").arg(table->viewport()->height()).arg(rowHeight)));
        const QHeaderView* header = table->horizontalHeader();
        for (int c = 0; c < FindingsModel::ColumnCount; ++c) {
            if (header->isSectionHidden(c)) continue;
            const int left = header->sectionViewportPosition(c);
            const bool last = c == FindingsModel::ColumnCount - 1;
            // Every column on screen; the summary (last) with room for words.
            QVERIFY2(left >= 0 && (last ? left + 80 <= table->viewport()->width() : left + header->sectionSize(c) <= table->viewport()->width()),
                     qPrintable(QStringLiteral("column %1 at %2 of %3 px").arg(c).arg(left).arg(table->viewport()->width())));
        }
        // Dock tabs read in full ("Summary", not "S...").
        for (QTabBar* bar : w.findChildren<QTabBar*>()) {
            if (!bar->isVisible()) continue;
            for (int i = 0; i < bar->count(); ++i)
                QVERIFY2(bar->tabRect(i).width() >= bar->fontMetrics().horizontalAdvance(bar->tabText(i)),
                         qPrintable(bar->tabText(i) + QStringLiteral(": %1 px").arg(bar->tabRect(i).width())));
        }
        // The annotation editor is wide enough to type a sentence in.
        w.findChild<QDockWidget*>(QStringLiteral("annotationsDock"))->raise();
        QTest::qWait(50);
        auto* note = w.findChild<QWidget*>(QStringLiteral("annotationsPanel"))->findChild<QLineEdit*>();
        QVERIFY(note);
        QVERIFY2(note->width() >= 200, qPrintable(QString::number(note->width())));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-default-layout.png")));
    }

    void resetLayoutBringsBackAClosedDock() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* findings = w.findChild<QDockWidget*>(QStringLiteral("findingsDock"));
        const QSize before = findings->size();
        findings->close();
        QVERIFY(!findings->isVisible());
        w.findChild<QAction*>(QStringLiteral("resetLayoutAction"))->trigger();
        QTRY_VERIFY(findings->isVisible());
        QTRY_COMPARE(findings->size(), before);
    }
};

QTEST_MAIN(TestDefaultLayout)
#include "tst_default_layout.moc"
