// File > Import from Prometheus…: the dialog a user fills in, under the offscreen platform.
#include "views/prometheus_pull_dialog.h"

#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QtTest>

#include <ctime>

using namespace fabscope;

class TestViewPullDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("FabScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_view_pull_dialog"));
    }

    void importNeedsAnHttpUrlAndAForwardWindow() {
        PrometheusPullDialog d;
        auto* ok = d.buttons()->button(QDialogButtonBox::Ok);
        auto* url = d.findChild<QLineEdit*>(QStringLiteral("url"));
        url->clear();
        QTest::keyClicks(url, QStringLiteral("prometheus:9090"));
        QVERIFY(!ok->isEnabled());  // no scheme
        url->clear();
        QTest::keyClicks(url, QStringLiteral("http://prometheus:9090"));
        QVERIFY(ok->isEnabled());
        const QDateTime t = QDateTime::fromSecsSinceEpoch(1700000000);
        d.setWindow(t, t.addSecs(-60));
        QVERIFY(!ok->isEnabled());  // reversed window
        d.setWindow(t, t.addSecs(3600));
        QVERIFY(ok->isEnabled());
    }

    // The window is shown and typed in UTC, whatever the machine's time zone.
    void theWindowIsInUtc() {
        const QByteArray zone = qgetenv("TZ");
        qputenv("TZ", "Asia/Kolkata");  // UTC+05:30
        tzset();
        PrometheusPullDialog d;
        d.setWindow(QDateTime::fromSecsSinceEpoch(1700000000), QDateTime::fromSecsSinceEpoch(1700003600));
        auto* from = d.findChild<QDateTimeEdit*>(QStringLiteral("from"));
        const QString shown = from->text();
        QCOMPARE(d.from().toSecsSinceEpoch(), 1700000000);
        from->setFocus();
        from->setCurrentSection(QDateTimeEdit::YearSection);
        QTest::keyClicks(from, QStringLiteral("2023-11-15 01"));  // typed as UTC: the next day, 01:13:20
        const qint64 typed = d.from().toSecsSinceEpoch();
        if (zone.isNull()) qunsetenv("TZ");
        else qputenv("TZ", zone);
        tzset();
        QCOMPARE(shown, QStringLiteral("2023-11-14 22:13:20 UTC"));
        QCOMPARE(typed, qint64{1700010800});
    }

    void whatTheUserTypedIsWhatIsPulled() {
        PrometheusPullDialog d;
        d.findChild<QLineEdit*>(QStringLiteral("url"))->setText(QStringLiteral(" http://prom.example:9090/prefix "));
        d.setWindow(QDateTime::fromSecsSinceEpoch(1700000000), QDateTime::fromSecsSinceEpoch(1700003600));
        d.findChild<QSpinBox*>(QStringLiteral("step"))->setValue(15);
        d.findChild<QPlainTextEdit*>(QStringLiteral("selectors"))->setPlainText(QStringLiteral("up\n\n  node_infiniband_port_data_transmitted_bytes_total{instance=~\"gpu.*\"} \n"));
        QCOMPARE(d.url(), QStringLiteral("http://prom.example:9090/prefix"));
        QCOMPARE(d.from().toSecsSinceEpoch(), 1700000000);
        QCOMPARE(d.to().toSecsSinceEpoch(), 1700003600);
        QCOMPARE(d.stepSeconds(), 15);
        QCOMPARE(d.selectors(), (QStringList{QStringLiteral("up"), QStringLiteral("node_infiniband_port_data_transmitted_bytes_total{instance=~\"gpu.*\"}")}));
        QSignalSpy accepted(&d, &QDialog::accepted);
        QTest::mouseClick(d.buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QCOMPARE(accepted.size(), 1);
        // The next dialog remembers the server and the step.
        PrometheusPullDialog next;
        QCOMPARE(next.url(), QStringLiteral("http://prom.example:9090/prefix"));
        QCOMPARE(next.stepSeconds(), 15);
    }
};

QTEST_MAIN(TestViewPullDialog)
#include "tst_view_pull_dialog.moc"
