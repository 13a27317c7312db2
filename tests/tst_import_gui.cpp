// File > Import files… as a user drives it: the dialog offers "Automatic" first and every format
// by its CLI name, and a chosen format is the one that reads the file; a large import can be
// cancelled from its progress dialog, and then the store holds nothing of it; the Imports dock
// shows what each file's name gave and when it was imported, the Summary its span in UTC.
#include "gui_fixture.h"
#include "views/import_dialog.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QTableWidget>
#include <QTreeWidget>
#include <QTimer>
#include <QtTest>

using namespace fabscope;

namespace {

// Closes every message box as soon as it shows (a failed import warns with one, modal).
// Accepts every message box as it shows, keeping its text in `shown` when given.
void closeMessageBoxes(QObject* owner, QStringList* shown = nullptr) {
    auto* t = new QTimer(owner);
    QObject::connect(t, &QTimer::timeout, [shown] {
        for (auto* w : QApplication::topLevelWidgets())
            if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
                if (shown) shown->append(box->text());
                box->accept();
            }
    });
    t->start(50);
}

std::int64_t importsIn(const QString& store) {
    const Store s(store.toStdString(), Store::Mode::ReadOnly);
    return static_cast<std::int64_t>(s.imports().size());
}

} // namespace

class TestImportGui : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void theDialogOffersAutomaticThenEveryFormatAndUsesTheChosenOne() {
        const QString store = dir_.filePath(QStringLiteral("chosen.sqlite"));
        { Store s(store.toStdString()); }
        // A perfquery capture, forced to be read as ibnetdiscover: ibnetdiscover's error names it.
        const QString file = dir_.filePath(QStringLiteral("counters.out"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("# Port counters: Lid 7 port 4\nPortXmitData:....................1000\n");
        }
        MainWindow w;
        w.show();
        QVERIFY(guitest::openAndWait(w, store, false));
        closeMessageBoxes(&w);
        QAction* action = nullptr;
        for (auto* a : w.findChildren<QAction*>())
            if (a->text().startsWith(QStringLiteral("&Import files"))) action = a;
        QVERIFY(action);
        action->trigger();
        auto* dialog = w.findChild<ImportDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QComboBox* format = dialog->formatBox();
        QVERIFY(format->itemText(0).startsWith(QStringLiteral("Automatic")));
        QVERIFY(format->findData(QStringLiteral("ibnetdiscover")) > 0);
        QVERIFY(format->findData(QStringLiteral("perfquery")) > 0);
        QVERIFY(format->findData(QStringLiteral("nccl-log")) > 0);
        auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());  // nothing to import yet
        dialog->setFiles({file});
        QVERIFY(ok->isEnabled());
        format->setCurrentIndex(format->findData(QStringLiteral("ibnetdiscover")));
        QSignalSpy imported(&w, &MainWindow::importFinished);
        QTest::mouseClick(ok, Qt::LeftButton);
        QVERIFY(imported.wait(20000));
        QCOMPARE(imported.front().front().toBool(), false);
        QTRY_VERIFY_WITH_TIMEOUT(w.findChild<ImportDialog*>() == nullptr, 5000);  // closed and deleted
        QCOMPARE(importsIn(store), std::int64_t{0});

        // The same file, Automatic: perfquery reads it (no topology, so its series stay unmapped).
        action->trigger();
        dialog = w.findChild<ImportDialog*>();
        QVERIFY(dialog);
        dialog->setFiles({file});
        QCOMPARE(dialog->format(), QString());
        imported.clear();
        QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(imported.wait(20000));
        QCOMPARE(imported.front().front().toBool(), true);
        QCOMPARE(importsIn(store), std::int64_t{1});
    }

    void aLargeImportIsCancelledFromItsProgressDialog() {
        const QString store = dir_.filePath(QStringLiteral("cancel.sqlite"));
        { Store s(store.toStdString()); }
        // ~8 M rows of the documented CSV (270 MB), written in small paced batches (below): still
        // running when its progress dialog shows at 300 ms.
        const QString file = dir_.filePath(QStringLiteral("large.csv"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("timestamp,node,port,counter,value\n");
            QByteArray chunk;
            for (int t = 0; t < 8000; ++t)
                for (int p = 0; p < 1000; ++p) {
                    chunk += QByteArray::number(1700000000 + 10 * t) + ",leaf" + QByteArray::number(p % 40) + "," +
                             QByteArray::number(p / 40) + ",xmit_bytes," + QByteArray::number(qint64(t) * 1000003 + p) + "\n";
                    if (chunk.size() > (1 << 20)) {
                        f.write(chunk);
                        chunk.clear();
                    }
                }
            f.write(chunk);
        }
        MainWindow w;
        w.show();
        QVERIFY(guitest::openAndWait(w, store, false));
        QStringList shown;
        closeMessageBoxes(&w, &shown);
        QSignalSpy imported(&w, &MainWindow::importFinished);
        // The import pauses 20 ms every 64 Ki samples (the crash tests' mode): the file alone
        // took ~0.3 s once the import got faster, and then ended before its dialog could show.
        qputenv("FABSCOPE_TEST_SMALL_BATCHES", "1");
        // 25 small files after it: none is reached before the Cancel.
        QStringList files{file};
        for (int i = 0; i < 25; ++i) {
            files << dir_.filePath(QStringLiteral("small%1.csv").arg(i, 2, 10, QLatin1Char('0')));
            QFile f(files.back());
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("timestamp,node,port,counter,value\n1700000000,leaf1,1,xmit_bytes," + QByteArray::number(i) + "\n");
        }
        w.importFiles(files);
        // Its progress dialog shows after 300 ms; Cancel is clicked as a user would.
        QProgressDialog* progress = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((progress = [&]() -> QProgressDialog* {
                                      for (auto* d : w.findChildren<QProgressDialog*>())
                                          if (d->isVisible()) return d;
                                      return nullptr;
                                  }()) != nullptr,
                                 10000);
        QVERIFY(imported.isEmpty());  // still running when the dialog showed
        // It names the file being read among all of them.
        QTRY_COMPARE(progress->labelText(), QStringLiteral("Importing file 1 of 26: large.csv…"));
        auto* cancel = progress->findChild<QPushButton*>();
        QVERIFY(cancel);
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(imported.wait(30000));
        qunsetenv("FABSCOPE_TEST_SMALL_BATCHES");
        QCOMPARE(imported.front().front().toBool(), false);
        QCOMPARE(importsIn(store), std::int64_t{0});  // nothing of the cancelled file was written
        // The user is told which files to import again: the first 20, then how many more.
        QCOMPARE(shown.size(), 1);
        QVERIFY2(shown.front().startsWith(QStringLiteral("Import cancelled: 0 imported before the Cancel are kept, 26 not imported.")),
                 qPrintable(shown.front()));
        QVERIFY2(shown.front().endsWith(QStringLiteral("Not imported:\n") + files.mid(0, 20).join(QLatin1Char('\n')) +
                                        QStringLiteral("\n… and 6 more (see Import diagnostics)")),
                 qPrintable(shown.front()));
        const Store s(store.toStdString(), Store::Mode::ReadOnly);
        QCOMPARE(static_cast<std::int64_t>(s.series().size()), std::int64_t{0});
    }

    // Two switches' captures of the same bytes (nothing paused): both imported, and the Imports dock
    // says which switch each file's name gave and when it was imported; the Summary's time span
    // is UTC with its date.
    void theImportsDockNamesWhatEachPathGave() {
        const QString store = dir_.filePath(QStringLiteral("idle.sqlite"));
        { Store s(store.toStdString()); }
        const QByteArray rule = "-----------  ------  ------  ------  ------  ------  ------  ------  ------\n";
        const QByteArray rows = "  Ethernet0       0       0       0       0       0       0       0     N/A\n";
        const QByteArray capture = "    Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n" + rule + rows + "\n" +
                                 "    Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n" + rule + rows;
        QStringList files;
        for (const char* sw : {"leaf01", "leaf02"}) {
            files << dir_.filePath(QString::fromLatin1(sw) + QStringLiteral(".pfc.txt"));
            QFile f(files.back());
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("1700000000\nadmin@sonic:~$ show pfc counters\n" + capture);
        }
        MainWindow w;
        w.show();
        QVERIFY(guitest::openAndWait(w, store, false));
        closeMessageBoxes(&w);
        QSignalSpy imported(&w, &MainWindow::importFinished), loaded(&w, &MainWindow::storeLoaded);
        w.importFiles(files);
        QVERIFY(imported.wait(30000));
        QCOMPARE(imported.front().front().toBool(), true);
        QVERIFY(loaded.count() > 0 || loaded.wait(20000));
        auto* table = w.findChild<QTableWidget*>(QStringLiteral("imports"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->horizontalHeaderItem(4)->text(), QStringLiteral("Named by its path"));
        QCOMPARE(table->item(0, 4)->text(), QStringLiteral("leaf01"));
        QCOMPARE(table->item(1, 4)->text(), QStringLiteral("leaf02"));
        QCOMPARE(table->item(0, 5)->text(), table->item(1, 5)->text());  // the same SHA-256
        QDateTime at = QDateTime::fromString(table->item(0, 3)->text(), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        QVERIFY2(at.isValid(), qPrintable(table->item(0, 3)->text()));
        at.setTimeSpec(Qt::UTC);
        QVERIFY(std::abs(at.toSecsSinceEpoch() - QDateTime::currentSecsSinceEpoch()) < 600);  // today's, in UTC
        const auto span = w.findChild<QTreeWidget*>(QStringLiteral("summary"))->findItems(QStringLiteral("Time span"), Qt::MatchExactly);
        QCOMPARE(span.size(), 1);
        QCOMPARE(span.front()->text(1), QStringLiteral("2023-11-14 22:13:20 – 22:13:20 UTC (0 s)"));
    }
};

QTEST_MAIN(TestImportGui)
#include "tst_import_gui.moc"
