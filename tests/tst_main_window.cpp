// The first window a user sees: it opens the demo store and shows what is in it.
#include "app/main_window.h"
#include "core/demo_fabric.h"
#include "importers/import_runner.h"
#include "views/fabric_overview_widget.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace fabscope;

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString summaryValue(MainWindow& w, const QString& key) {
        auto* tree = w.findChild<QTreeWidget*>(QStringLiteral("summary"));
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            if (tree->topLevelItem(i)->text(0) == key) return tree->topLevelItem(i)->text(1);
        return {};
    }

private Q_SLOTS:
    void opensTheDemoStoreAndShowsItsFabric() {
        const std::string demo = dir_.filePath(QStringLiteral("demo")).toStdString();
        const std::string store = dir_.filePath(QStringLiteral("demo.sqlite")).toStdString();
        writeDemo(demo, {});
        {
            Store s(store);
            ImporterRegistry reg;
            ImportRunner(s, reg).run({demo}, {});
        }
        MainWindow w;
        w.show();
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        w.openStore(QString::fromStdString(store));
        QVERIFY(loaded.wait(10000));
        QCOMPARE(summaryValue(w, QStringLiteral("Switches")), QStringLiteral("12"));
        QCOMPARE(summaryValue(w, QStringLiteral("Links")), QStringLiteral("96"));
        // The demo's one 1x host link among 4x links is flagged on the picture.
        QCOMPARE(summaryValue(w, QStringLiteral("Degraded links (width)")), QStringLiteral("1"));
        QVERIFY(w.windowTitle().contains(QStringLiteral("demo.sqlite")));
        auto* overview = w.findChild<FabricOverviewWidget*>();
        QVERIFY(overview);
        const QImage shot = overview->grab().toImage();
        // Some orange pixels: the degraded link is drawn.
        bool orange = false;
        for (int y = 0; y < shot.height() && !orange; ++y)
            for (int x = 0; x < shot.width() && !orange; ++x) {
                const QColor c = shot.pixelColor(x, y);
                orange = c.red() > 200 && c.green() > 90 && c.green() < 150 && c.blue() < 40;
            }
        QVERIFY(orange);
        if (qEnvironmentVariableIsSet("FABSCOPE_SCREENSHOTS")) w.grab().save(QStringLiteral("/tmp/fabscope-main.png"));
    }

    void brokenStoreShowsNoFabricButDoesNotCrash() {
        QFile f(dir_.filePath(QStringLiteral("broken.sqlite")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(2048, 'z'));
        f.close();
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        // The error dialog is modal; close it as soon as it appears.
        QTimer::singleShot(0, [] {});
        auto closer = new QTimer(&w);
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
