// `fabscope import --prometheus`: a pull from a real Prometheus (backfilled with promtool) stores
// exactly the samples backfilled on the right fabric ports; chunking, retries and every error a
// server can give (down, 404, API error, too many points, timeout) behave as documented.
#include "external_tool.h"
#include "fake_prometheus.h"
#include "real_prometheus.h"

#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/remote/prometheus_pull.h"
#include "importers/remote/query_chunks.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace fabscope;

namespace {

const std::string kTopology = FABSCOPE_TEST_DATA "/ibsim/ibnetdiscover.txt";  // the ibsim fat tree

struct Run {
    int code = -1;
    QByteArray out, err;
};

// Runs the fabscope binary while this thread keeps serving (a FakePrometheus lives here).
Run runFabscope(const QStringList& args) {
    QProcess p;
    QSignalSpy done(&p, &QProcess::finished);
    p.start(QStringLiteral(FABSCOPE_BIN), args);
    if (!p.waitForStarted(10000)) return {-1, {}, "cannot start " FABSCOPE_BIN};
    if (!done.wait(120000)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, "fabscope did not finish"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

std::unique_ptr<Store> storeWithTopology(const QString& path) {
    auto store = std::make_unique<Store>(path.toStdString());
    ImporterRegistry registry;
    const auto s = ImportRunner(*store, registry).run({kTopology}, {});
    if (s.anyFailed()) qFatal("topology import failed");
    return store;
}

std::optional<SeriesData> seriesOf(const Store& store, const std::string& node, const std::string& port, const std::string& counter) {
    for (const auto& s : store.series())
        if (s.nodeRef == node && s.port == port && s.counter == counter) return store.loadSeries(s.id);
    return std::nullopt;
}

PullOptions pullOf(const QString& url, double from, double to, double step, std::vector<std::string> selectors = {}) {
    PullOptions o;
    o.url = url.toStdString();
    o.from = from;
    o.to = to;
    o.step = step;
    o.selectors = std::move(selectors);
    return o;
}

bool said(const ImportSummary& s, const std::string& words) {
    return std::any_of(s.diagnostics.begin(), s.diagnostics.end(), [&](const Diagnostic& d) { return d.message.find(words) != std::string::npos; });
}

QByteArray messages(const ImportSummary& s) {
    QByteArray all;
    for (const auto& d : s.diagnostics) all += QByteArray::fromStdString(d.format()) + '\n';
    return all;
}

// A backfilled series: OpenMetrics name and labels, where FabScope must store it, its values.
struct Backfilled {
    const char* family;  // OpenMetrics family; samples are family + "_total"
    const char* labels;
    std::string node, port, counter;
    double first, increment;
};

const Backfilled kSeries[] = {
    {"infiniband_switch_port_transmit_data_bytes", "guid=\"0x0000000000200005\",port=\"3\"", "0x200005", "3", "xmit_bytes", 1e9, 12345678},
    {"infiniband_switch_port_symbol_error", "guid=\"0x0000000000200005\",port=\"4\"", "0x200005", "4", "symbol_errors", 0, 3},
    // HCA metrics carry the *port* GUID: ibsim gpu007 is node 0x10000c, port 0x10000d.
    {"infiniband_hca_port_receive_data_bytes", "guid=\"0x000000000010000d\",port=\"1\"", "0x10000c", "1", "rcv_bytes", 5e8, 4096},
    {"node_infiniband_port_data_transmitted_bytes", "device=\"mlx5_0\",instance=\"gpu008:9100\",port=\"1\"", "gpu008 mlx5_0", "1",
     "xmit_bytes", 7e6, 1000},
};
constexpr int kSamples = 40;
constexpr int kStep = 15;

} // namespace

class TestPrometheusPull : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString p(const QString& name) const { return dir_.filePath(name); }

private Q_SLOTS:
    void chunksCoverEveryInstantOnce() {
        const auto chunks = planChunks(0, 29'999'000, 1000, 11000);
        QCOMPARE(chunks.size(), std::size_t{3});
        std::int64_t points = 0, next = 0;
        for (const auto& c : chunks) {
            QCOMPARE(c.startMs, next);
            QVERIFY(pointsIn(c, 1000) <= 11000);
            points += pointsIn(c, 1000);
            next = c.endMs + 1000;
        }
        QCOMPARE(points, std::int64_t{30000});
        const auto halves = splitChunk({0, 10'000}, 1000);  // 11 instants: 6 + 5
        QVERIFY(halves);
        QCOMPARE(pointsIn(halves->first, 1000), std::int64_t{6});
        QCOMPARE(halves->second.startMs, std::int64_t{6000});
        QVERIFY(!splitChunk({5000, 5000}, 1000));
    }

    void realServerRoundTrip() {
        FABSCOPE_REQUIRE_TOOL("prometheus", "prometheus");
        FABSCOPE_REQUIRE_TOOL("promtool", "prometheus");
        // Recent enough for any retention, old enough to be in a finished block; aligned on the step.
        const qint64 t0 = (QDateTime::currentSecsSinceEpoch() - 3 * 3600) / kStep * kStep;
        QByteArray om;
        for (const auto& s : kSeries) {
            om += QByteArray("# TYPE ") + s.family + " counter\n";
            for (int i = 0; i < kSamples; ++i)
                om += QByteArray(s.family) + "_total{" + s.labels + "} " + QByteArray::number(s.first + i * s.increment, 'f', 0) + ' ' +
                      QByteArray::number(t0 + i * kStep) + '\n';
        }
        om += "# EOF\n";
        RealPrometheus server;
        QElapsedTimer clock;
        clock.start();
        const QString started = server.start(dir_.path(), om);
        QVERIFY2(started.isEmpty(), qPrintable(started));
        const qint64 startMs = clock.elapsed();

        // The library, with tiny chunks so chunk edges are crossed on the real server.
        auto store = storeWithTopology(p(QStringLiteral("real.sqlite")));
        PullOptions o;
        o.url = server.url().toStdString();
        o.from = static_cast<double>(t0);
        o.to = static_cast<double>(t0 + (kSamples - 1) * kStep);
        o.step = kStep;
        o.maxPoints = 7;
        clock.restart();
        const ImportSummary s = pullPrometheus(*store, o);
        const qint64 pullMs = clock.elapsed();
        QVERIFY2(!s.anyFailed() && s.count(FileStatus::Imported) == 1, messages(s).constData());
        QCOMPARE(s.files.front().rows, std::int64_t{kSamples} * 4);
        QVERIFY2(!said(s, "repeat a timestamp"), messages(s).constData());
        for (const auto& b : kSeries) {
            const auto data = seriesOf(*store, b.node, b.port, b.counter);
            QVERIFY2(data, b.family);
            QCOMPARE(data->timesMs.size(), std::size_t{kSamples});
            for (int i = 0; i < kSamples; ++i) {
                QCOMPARE(data->timesMs[static_cast<std::size_t>(i)], (t0 + i * kStep) * 1000);
                QCOMPARE(data->values[static_cast<std::size_t>(i)], b.first + i * b.increment);
            }
        }
        for (const auto& info : store->series()) QVERIFY2(info.deviceId != 0, info.nodeRef.c_str());  // every series on a fabric port
        QCOMPARE(store->info().imports.back().format, std::string("prometheus-pull"));
        qInfo("prometheus ready in %lld ms; pull of %d samples in %d queries: %lld ms", startMs, kSamples * 4,
              6 * 3, pullMs);

        // The same pull again: nothing to do, and it says so.
        const ImportSummary again = pullPrometheus(*store, o);
        QCOMPARE(again.count(FileStatus::AlreadyImported), std::size_t{1});
        QVERIFY(said(again, "already pulled"));

        // The server's own "exceeded maximum resolution" answer: the client halves and asks again.
        auto fine = storeWithTopology(p(QStringLiteral("fine.sqlite")));
        o.selectors = {"infiniband_switch_port_transmit_data_bytes_total"};
        o.from = static_cast<double>(t0 - 12000);
        o.step = 1;
        o.maxPoints = 20000;  // more than the server takes
        const ImportSummary split = pullPrometheus(*fine, o);
        QVERIFY2(!split.anyFailed(), messages(split).constData());
        QVERIFY(said(split, "were split"));
        const auto every = seriesOf(*fine, "0x200005", "3", "xmit_bytes");
        QVERIFY(every);
        QCOMPARE(every->timesMs.size(), std::size_t{(kSamples - 1) * kStep + 1});  // nothing before t0 exists
        for (std::size_t i = 0; i < every->timesMs.size(); ++i) {
            QCOMPARE(every->timesMs[i], (t0 + static_cast<qint64>(i)) * 1000);
            QCOMPARE(every->values[i], 1e9 + static_cast<double>(i / kStep) * 12345678);  // the last sample at or before t
        }

        // The CLI, as a user runs it.
        const QString db = p(QStringLiteral("cli.sqlite"));
        QCOMPARE(runFabscope({QStringLiteral("import"), QStringLiteral("--db"), db, QString::fromStdString(kTopology)}).code, 0);
        const QStringList pull{QStringLiteral("import"), QStringLiteral("--db"), db, QStringLiteral("--prometheus"), server.url(),
                               QStringLiteral("--from"), QString::number(t0), QStringLiteral("--to"),
                               QString::number(t0 + (kSamples - 1) * kStep), QStringLiteral("--step"), QString::number(kStep)};
        const Run cli = runFabscope(pull);
        QVERIFY2(cli.code == 0, cli.err.constData());
        QVERIFY(cli.out.isEmpty());
        const Run info = runFabscope({QStringLiteral("info"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        const QJsonObject j = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(j[QStringLiteral("samples")].toInt(), kSamples * 4);
        QCOMPARE(j[QStringLiteral("unmapped_series")].toInt(), 0);
        QCOMPARE(j[QStringLiteral("time")].toObject()[QStringLiteral("start")].toInteger(), t0);
        const Run again2 = runFabscope(pull);
        QCOMPARE(again2.code, 0);
        QVERIFY2(again2.err.contains("already pulled"), again2.err.constData());
        server.stop();
    }

    void longWindowIsChunkedWithoutDuplicates() {
        FakePrometheus fake(FakePrometheus::rangeOfOneCounter());
        auto store = storeWithTopology(p(QStringLiteral("chunks.sqlite")));
        PullOptions o = pullOf(fake.url(), 1700000000, 1700000000 + 29999, 1, {"node_infiniband_port_data_transmitted_bytes_total"});
        const ImportSummary s = pullPrometheus(*store, o);
        QVERIFY2(!s.anyFailed(), messages(s).constData());
        QCOMPARE(fake.requests().size(), 3);  // 30,000 instants in queries of at most 11,000
        for (const QUrl& u : fake.requests()) {
            const QUrlQuery q(u);
            QVERIFY(q.queryItemValue(QStringLiteral("end")).toDouble() - q.queryItemValue(QStringLiteral("start")).toDouble() <= 11000);
        }
        const auto data = seriesOf(*store, "gpu007 mlx5_0", "1", "xmit_bytes");
        QVERIFY(data);
        QCOMPARE(data->timesMs.size(), std::size_t{30000});
        for (std::size_t i = 0; i < data->timesMs.size(); ++i) QCOMPARE(data->timesMs[i], (1700000000 + static_cast<qint64>(i)) * 1000);
        QVERIFY(!said(s, "repeat a timestamp"));
    }

    void serverWithLowerLimitGetsSplitQueries() {
        FakePrometheus fake(FakePrometheus::rangeOfOneCounter(4000));
        auto store = storeWithTopology(p(QStringLiteral("split.sqlite")));
        PullOptions o = pullOf(fake.url(), 1700000000, 1700000000 + 9999, 1, {"node_infiniband_port_data_transmitted_bytes_total"});
        const ImportSummary s = pullPrometheus(*store, o);
        QVERIFY2(!s.anyFailed(), messages(s).constData());
        QVERIFY(said(s, "were split"));
        const auto data = seriesOf(*store, "gpu007 mlx5_0", "1", "xmit_bytes");
        QCOMPARE(data->timesMs.size(), std::size_t{10000});
        QCOMPARE(data->values.back(), 1000.0 + 1700000000 + 9999);
    }

    void timeoutIsRetried() {
        int asked = 0;
        const auto range = FakePrometheus::rangeOfOneCounter();
        FakePrometheus fake([&](const QUrl& u) { return ++asked == 1 ? FakeAnswer{200, {}, true} : range(u); });
        auto store = storeWithTopology(p(QStringLiteral("retry.sqlite")));
        PullOptions o = pullOf(fake.url(), 1700000000, 1700000060, 15, {"node_infiniband_port_data_transmitted_bytes_total"});
        o.timeoutMs = 300;
        o.backoffMs = 50;
        const ImportSummary s = pullPrometheus(*store, o);
        QVERIFY2(!s.anyFailed(), messages(s).constData());
        QCOMPARE(asked, 2);
        QVERIFY2(said(s, "no answer within 300 ms; retrying"), messages(s).constData());
        QCOMPARE(s.files.front().rows, std::int64_t{5});
    }

    void errorsAreClearAndWriteNothing_data() {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::newRow("wrong path: 404") << 200 << QByteArray() << QStringLiteral("/grafana") << QStringLiteral("HTTP 404 Not Found");
        QTest::newRow("API error") << 400
                                   << QByteArray("{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"query\\\": 1:1: parse error\"}")
                                   << QString() << QStringLiteral("HTTP 400 Bad Request: bad_data: invalid parameter \"query\": 1:1: parse error");
        QTest::newRow("not a Prometheus") << 200 << QByteArray("<html>hello</html>") << QString() << QStringLiteral("not valid JSON");
        QTest::newRow("no fabric counters") << 200 << QByteArray("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}")
                                            << QString() << QStringLiteral("no InfiniBand counter samples");
    }
    void errorsAreClearAndWriteNothing() {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QString, path);
        QFETCH(QString, expected);
        FakePrometheus fake([&](const QUrl& u) {
            if (u.path() != QLatin1String("/api/v1/query_range")) return FakeAnswer{404, "404 page not found\n"};
            return FakeAnswer{status, body};
        });
        auto store = storeWithTopology(p(QStringLiteral("err.sqlite")));
        const StoreInfo before = store->info();
        const ImportSummary s = pullPrometheus(*store, pullOf(fake.url() + path, 1700000000, 1700000060, 15));
        QVERIFY(s.anyFailed());
        QVERIFY2(said(s, expected.toStdString()), messages(s).constData());
        if (status != 200 || !path.isEmpty()) QVERIFY2(said(s, "http://127.0.0.1:"), messages(s).constData());  // the URL asked
        QCOMPARE(store->info().samples, before.samples);
        QCOMPARE(store->info().imports.size(), before.imports.size());
    }

    void serverDownExitsOneAndChangesNothing() {
        QTcpServer probe;  // a port nothing listens on
        probe.listen(QHostAddress::LocalHost, 0);
        const QString url = QStringLiteral("http://127.0.0.1:%1").arg(probe.serverPort());
        probe.close();
        auto store = storeWithTopology(p(QStringLiteral("down.sqlite")));
        const ImportSummary s = pullPrometheus(*store, pullOf(url, 1700000000, 1700000060, 15));
        QVERIFY(s.anyFailed());
        QVERIFY2(said(s, "cannot reach Prometheus: Connection refused"), messages(s).constData());
        store.reset();

        const QString db = p(QStringLiteral("down.sqlite"));
        const QByteArray before = runFabscope({QStringLiteral("info"), QStringLiteral("--db"), db, QStringLiteral("--json")}).out;
        const Run r = runFabscope({QStringLiteral("import"), QStringLiteral("--db"), db, QStringLiteral("--prometheus"), url, QStringLiteral("--from"),
                                QStringLiteral("1700000000"), QStringLiteral("--to"), QStringLiteral("1700000060")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("Connection refused") && r.err.contains(url.toUtf8()), r.err.constData());
        QCOMPARE(runFabscope({QStringLiteral("info"), QStringLiteral("--db"), db, QStringLiteral("--json")}).out, before);
    }

    void cliReportsApiErrorsAndUsage() {
        FakePrometheus fake([](const QUrl&) {
            return FakeAnswer{422, "{\"status\":\"error\",\"errorType\":\"execution\",\"error\":\"query processing would load too many samples into memory\"}"};
        });
        const QString db = p(QStringLiteral("cli-err.sqlite"));
        const Run r = runFabscope({QStringLiteral("import"), QStringLiteral("--db"), db, QStringLiteral("--prometheus"), fake.url(),
                                QStringLiteral("--from"), QStringLiteral("1700000000"), QStringLiteral("--to"), QStringLiteral("1700000060"),
                                QStringLiteral("--match"), QStringLiteral("node_infiniband_port_data_transmitted_bytes_total")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("HTTP 422") && r.err.contains("execution: query processing would load too many samples"), r.err.constData());
        const Run usage = runFabscope({QStringLiteral("import"), QStringLiteral("--db"), db, QStringLiteral("--prometheus"), fake.url()});
        QCOMPARE(usage.code, 2);
        QVERIFY2(usage.err.contains("--from"), usage.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestPrometheusPull)
#include "tst_prometheus_pull.moc"
