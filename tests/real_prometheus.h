#pragma once
// A real Prometheus for round-trip tests: backfills OpenMetrics text with
// `promtool tsdb create-blocks-from openmetrics`, then serves it on a free loopback port.
// The process is killed when this object goes, whatever the test did.
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QThread>

#include <memory>

class RealPrometheus {
public:
    ~RealPrometheus() { stop(); }

    // Backfills `openMetrics` into dir/data and starts the server; an empty string on success,
    // else what went wrong.
    QString start(const QString& dir, const QByteArray& openMetrics) {
        QFile in(dir + QStringLiteral("/backfill.om"));
        QFile config(dir + QStringLiteral("/prometheus.yml"));
        if (!in.open(QIODevice::WriteOnly) || in.write(openMetrics) != openMetrics.size()) return QStringLiteral("cannot write backfill.om");
        in.close();
        if (!config.open(QIODevice::WriteOnly)) return QStringLiteral("cannot write prometheus.yml");
        config.write("global:\n  scrape_interval: 1h\n");  // scrapes nothing: the data is all backfilled
        config.close();
        const QString data = dir + QStringLiteral("/data");
        QProcess promtool;
        promtool.start(QStringLiteral("promtool"), {QStringLiteral("tsdb"), QStringLiteral("create-blocks-from"), QStringLiteral("openmetrics"),
                                                     in.fileName(), data});
        if (!promtool.waitForFinished(60000) || promtool.exitCode() != 0)
            return QStringLiteral("promtool failed: ") + QString::fromLocal8Bit(promtool.readAllStandardError());

        QTcpServer probe;  // a free port: bind to 0, read it, release it
        probe.listen(QHostAddress::LocalHost, 0);
        port_ = probe.serverPort();
        probe.close();
        process_ = std::make_unique<QProcess>();
        process_->setProcessChannelMode(QProcess::MergedChannels);
        // Under `timeout`, so a test process that aborts cannot leave a server behind for long.
        process_->start(QStringLiteral("timeout"),
                        {QStringLiteral("600"), QStringLiteral("prometheus"), QStringLiteral("--config.file=") + config.fileName(),
                         QStringLiteral("--storage.tsdb.path=") + data, QStringLiteral("--storage.tsdb.retention.time=100y"),
                         QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port_)});
        if (!process_->waitForStarted(10000)) return QStringLiteral("prometheus did not start");
        QNetworkAccessManager nam;
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 30000) {
            std::unique_ptr<QNetworkReply> reply(nam.get(QNetworkRequest(QUrl(url() + QStringLiteral("/-/ready")))));
            QEventLoop loop;
            QObject::connect(reply.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);
            loop.exec();
            if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200) {
                readyMs_ = waited.elapsed();
                return {};
            }
            if (process_->state() == QProcess::NotRunning) break;
            QThread::msleep(100);
        }
        return QStringLiteral("prometheus not ready: ") + QString::fromLocal8Bit(process_->readAll().right(2000));
    }

    void stop() {
        if (!process_) return;
        process_->terminate();  // `timeout` passes SIGTERM on to prometheus (SIGKILL would orphan it)
        if (!process_->waitForFinished(10000)) {
            process_->kill();
            process_->waitForFinished(5000);
        }
        process_.reset();
    }

    [[nodiscard]] QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(port_); }
    [[nodiscard]] qint64 readyMs() const { return readyMs_; }

private:
    std::unique_ptr<QProcess> process_;
    quint16 port_ = 0;
    qint64 readyMs_ = 0;
};
