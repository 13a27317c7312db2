// `fabscope whatif` (issue 22) on compare_fixture.h's 4-leaf, 3-spine fabric with steady load:
// leaf01's uplinks carry 70 % up, every other link direction 50 %, and a job runs on gpu01
// (leaf01) and gpu03 (leaf02). Failing one leaf01 uplink moves its load onto leaf01's two other
// uplinks (70 + 35 = 105 %, so they turn hot) with the total conserved; failing spine01 spreads
// its load over spine02 and spine03; the job's slowdown is the hand calculation 1.05 / 1.
// --out FILE.html|FILE.pdf writes the prediction as a document with the same numbers (the PDF's
// text read back with poppler's pdftotext); other extensions are a usage error.
#include "uplink_load_fixture.h"

#include "cli_run.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>

namespace {

using clitest::Run;
using clitest::runCli;

std::string end(const QJsonObject& p) {
    return p[QStringLiteral("node")].toString().toStdString() + " p" + std::to_string(p[QStringLiteral("port")].toInt());
}

// tx -> {p95 before, p95 after (-1 failed), turns hot}
struct After {
    double before = 0, after = 0;
    bool hot = false;
};
std::map<std::string, After> links(const QJsonObject& j) {
    std::map<std::string, After> out;
    for (const auto& v : j[QStringLiteral("links")].toArray()) {
        const QJsonObject l = v.toObject();
        const QJsonArray ports = l[QStringLiteral("ports")].toArray();
        const QJsonObject after = l[QStringLiteral("after")].toObject();
        out[end(ports[0].toObject()) + ">" + end(ports[1].toObject())] = {
            l[QStringLiteral("before")].toObject()[QStringLiteral("p95_util")].toDouble(),
            after.contains(QStringLiteral("state")) ? -1 : after[QStringLiteral("p95_util")].toDouble(), l[QStringLiteral("turns_hot")].toBool()};
    }
    return out;
}

// The rows of an HTML table by its id, each as its cells' text (entities undone).
std::vector<QStringList> htmlRows(const QString& html, const QString& id) {
    const qsizetype at = html.indexOf(QStringLiteral("id=\"t-") + id + '"');
    if (at < 0) return {};
    const qsizetype body = html.indexOf(QLatin1String("<tbody>"), at), end = html.indexOf(QLatin1String("</table>"), at);
    std::vector<QStringList> rows;
    const QRegularExpression tr(QStringLiteral("<tr[^>]*>(.*?)</tr>")), td(QStringLiteral("<td[^>]*>(.*?)</td>"));
    for (auto m = tr.globalMatch(html.mid(body, end - body)); m.hasNext();) {
        QStringList cells;
        for (auto c = td.globalMatch(m.next().captured(1)); c.hasNext();)
            cells << c.next().captured(1).replace(QLatin1String("&gt;"), QLatin1String(">")).replace(QLatin1String("&amp;"), QLatin1String("&"));
        rows.push_back(cells);
    }
    return rows;
}

QString figure(const QString& html, const QString& label) {
    const auto m = QRegularExpression(QStringLiteral("<div class=\"label\">") + QRegularExpression::escape(label) +
                                      QStringLiteral("</div><div class=\"value\">([^<]*)</div>"))
                       .match(html);
    return m.hasMatch() ? m.captured(1) : QStringLiteral("no figure '") + label + '\'';
}

QString tool(const QString& name, const QStringList& args) {
    if (QStandardPaths::findExecutable(name).isEmpty()) return name + QStringLiteral(" not installed (poppler-utils)");
    QProcess p;
    p.start(QStandardPaths::findExecutable(name), args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0) return name + QStringLiteral(" failed");
    return QString::fromUtf8(p.readAllStandardOutput());
}

} // namespace

class TestCliWhatIf : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string db_;

    QJsonObject whatif(const QStringList& change) {
        QStringList args{QStringLiteral("whatif"), QStringLiteral("--db"), QString::fromStdString(db_), QStringLiteral("--json")};
        args += change;
        const Run r = runCli(args);
        if (r.code != 0) qFatal("whatif failed: %s", r.err.constData());
        return QJsonDocument::fromJson(r.out).object();
    }

    static void conserved(const QJsonObject& j) {
        const QJsonObject t = j[QStringLiteral("total_p95_gbps")].toObject();
        const double before = t[QStringLiteral("before")].toDouble(), after = t[QStringLiteral("after")].toDouble();
        QVERIFY(before > 0);
        QVERIFY2(std::abs(after - before) <= 0.01 * before, qPrintable(QString::number(before) + " -> " + QString::number(after)));
    }

private Q_SLOTS:
    void initTestCase() {
        atest::Stores stores(dir_);
        db_ = stores.make(cmpfix::fabric(false), cmpfix::steadyUplinks([](int l, int) { return l == 1 ? 0.7 : 0.5; }, 0.5));
        cmpfix::importFile(db_, cmpfix::twoRankJob(stores));
    }

    void leafUplinkLoadMovesToItsSiblings() {
        const QJsonObject j = whatif({QStringLiteral("--fail"), QStringLiteral("leaf01:20")});
        conserved(j);
        const auto l = links(j);
        QCOMPARE(l.at("leaf01 p20>spine01 p1").after, -1.0);
        for (const char* sibling : {"leaf01 p21>spine02 p1", "leaf01 p22>spine03 p1"}) {
            QCOMPARE(l.at(sibling).before, 0.7);
            QCOMPARE(l.at(sibling).after, 1.05);  // 0.7 + 0.7 / 2
            QVERIFY(l.at(sibling).hot);
        }
        // Listed first: the links that turn hot.
        const QJsonArray arr = j[QStringLiteral("links")].toArray();
        QVERIFY(arr[0].toObject()[QStringLiteral("turns_hot")].toBool() && arr[1].toObject()[QStringLiteral("turns_hot")].toBool());
        // The down traffic spine01 carried to leaf01 now comes from spine02 and spine03.
        QCOMPARE(l.at("spine02 p1>leaf01 p21").after, 0.75);
        // What leaf01 sent through spine01 to the other leaves now comes down from spine02 and
        // spine03, in proportion to spine01's down links (a third each): 0.5 + 140/3/2 / 200.
        QVERIFY(std::abs(l.at("spine02 p2>leaf02 p21").after - (0.5 + 140.0 / 3 / 2 / 200)) < 1e-3);
        QVERIFY(std::abs(l.at("spine01 p2>leaf02 p20").after - (0.5 - 140.0 / 3 / 200)) < 1e-3);
        // The job: gpu01 -> gpu03 crosses one of leaf01's remaining uplinks, now at 105 %.
        const QJsonObject job = j[QStringLiteral("job")].toObject();
        QCOMPARE(job[QStringLiteral("slowdown")].toDouble(), 1.05);  // max(1, 1.05) / max(1, 0.7)
        QCOMPARE(job[QStringLiteral("worst_p95_util_before")].toDouble(), 0.7);
        QVERIFY(j[QStringLiteral("disconnected")].toArray().isEmpty());
    }

    void spineLoadSpreadsOverTheOtherSpines() {
        const QJsonObject j = whatif({QStringLiteral("--fail"), QStringLiteral("spine01")});
        conserved(j);
        const auto l = links(j);
        for (int leaf = 1; leaf <= 4; ++leaf) {
            const std::string lf = "leaf0" + std::to_string(leaf);
            QCOMPARE(l.at(lf + " p20>spine01 p" + std::to_string(leaf)).after, -1.0);
            for (int s = 2; s <= 3; ++s) {
                const std::string up = lf + " p" + std::to_string(19 + s) + ">spine0" + std::to_string(s) + " p" + std::to_string(leaf);
                QCOMPARE(l.at(up).after, leaf == 1 ? 1.05 : 0.75);
                const std::string down = "spine0" + std::to_string(s) + " p" + std::to_string(leaf) + ">" + lf + " p" + std::to_string(19 + s);
                QCOMPARE(l.at(down).after, 0.75);
            }
        }
    }

    void degradedLinkKeepsItsLoadOnLessCapacity() {
        const QJsonObject j = whatif({QStringLiteral("--degrade"), QStringLiteral("leaf02:21=1xHDR")});
        const auto l = links(j);
        QCOMPARE(l.at("leaf02 p21>spine02 p2").after, 2.0);  // 50 % of 200 Gb/s on 50 Gb/s
        QVERIFY(l.at("leaf02 p21>spine02 p2").hot);
    }

    // The same prediction as a document: marked as one with its model, the window in UTC with
    // its date, leaf01's two other uplinks 70 % -> 105 % and hot first, the p95 load over the
    // touched directions conserved (worked out: the failed link 140 + 100, its siblings
    // 2 x (140 + 100), spine01's 3 other links 3 x (100 + 100) and the other spines' links to
    // leaf02..04 2 x 3 x (100 + 100) Gb/s = 2520 Gb/s), the job 70 % -> 105 %, slowdown 1.05 x.
    void htmlAndPdfPrediction() {
        const QString html = dir_.filePath(QStringLiteral("whatif.html")), pdf = dir_.filePath(QStringLiteral("whatif.pdf"));
        const QStringList args{QStringLiteral("whatif"), QStringLiteral("--db"), QString::fromStdString(db_), QStringLiteral("--fail"),
                               QStringLiteral("leaf01:20"), QStringLiteral("--out")};
        Run r = runCli(args + QStringList{html});
        QVERIFY2(r.code == 0, r.err.constData());
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains(QLatin1String("<h1>What-if prediction: fail leaf01:20</h1>")));
        QVERIFY(text.contains(QLatin1String("Prediction, not a measurement")));
        QVERIFY(text.contains(QLatin1String("docs/ANALYSIS.md &quot;What-if&quot;")) || text.contains(QLatin1String("docs/ANALYSIS.md \"What-if\"")));
        QVERIFY(text.contains(QLatin1String("routing: ECMP re-spreading")));  // the fixture has no forwarding tables
        QVERIFY(text.contains(QLatin1String("2023-11-14 22:13:20 UTC")));  // the window's start (kT0), with its date

        const auto links = htmlRows(text, QStringLiteral("whatif_links"));
        QVERIFY(links.size() >= 4);
        QStringList firstTwo{links[0][0], links[1][0]};
        firstTwo.sort();
        QCOMPARE(firstTwo, (QStringList{QStringLiteral("leaf01 p21 -> spine02 p1"), QStringLiteral("leaf01 p22 -> spine03 p1")}));
        for (int i = 0; i < 2; ++i) {
            // capacity (Gb/s), p95 before, after (%), peak before, after (%), delta (pp), hot
            QCOMPARE(links[i].mid(1), (QStringList{QStringLiteral("200"), QStringLiteral("70.0"), QStringLiteral("105.0"), QStringLiteral("70.0"),
                                                   QStringLiteral("105.0"), QStringLiteral("+35.0"), QStringLiteral("yes (turns hot)")}));
        }
        bool failedRow = false;
        for (const auto& row : links) failedRow = failedRow || (row[0] == QLatin1String("leaf01 p20 -> spine01 p1") && row[3] == QLatin1String("failed"));
        QVERIFY(failedRow);
        QCOMPARE(figure(text, QStringLiteral("Total p95 load before (Gb/s)")), QStringLiteral("2520"));
        QCOMPARE(figure(text, QStringLiteral("Total p95 load after (Gb/s)")), QStringLiteral("2520"));
        QVERIFY(text.contains(QLatin1String("2520 Gb/s before, 2520 Gb/s after (conserved")));
        QCOMPARE(figure(text, QStringLiteral("Hosts cut off")), QStringLiteral("0"));
        const auto jobs = htmlRows(text, QStringLiteral("whatif_jobs"));
        QCOMPARE(jobs.size(), std::size_t{1});
        QCOMPARE(jobs[0][1], QStringLiteral("2"));
        QCOMPARE(jobs[0][2], QStringLiteral("70.0"));
        QCOMPARE(jobs[0][3], QStringLiteral("105.0"));
        QVERIFY2(jobs[0][4].startsWith(QLatin1String("leaf01 p2")), qPrintable(jobs[0][4]));
        QCOMPARE(jobs[0][5], QStringLiteral("1.05"));
        QVERIFY(text.contains(QLatin1String("Slowdown (x)")) && text.contains(QLatin1String("GPU-hours at risk (GPU h)")));

        // The PDF says the same.
        r = runCli(args + QStringList{pdf});
        QVERIFY2(r.code == 0, r.err.constData());
        if (const QByteArray keep = qgetenv("FABSCOPE_KEEP_REPORTS"); !keep.isEmpty()) {
            QFile::copy(pdf, QString::fromUtf8(keep) + QStringLiteral("/whatif.pdf"));
            QFile::copy(html, QString::fromUtf8(keep) + QStringLiteral("/whatif.html"));
        }
        const QString info = tool(QStringLiteral("pdfinfo"), {pdf});
        QVERIFY2(QRegularExpression(QStringLiteral("Pages:\\s+[1-9]")).match(info).hasMatch(), qPrintable(info));
        const QString t = tool(QStringLiteral("pdftotext"), {QStringLiteral("-raw"), pdf, QStringLiteral("-")}).simplified();
        for (const char* expected : {"What-if prediction: fail leaf01:20", "Prediction, not a measurement", "leaf01 p21 -> spine02 p1",
                                     "105.0", "+35.0", "yes (turns hot)", "2520 Gb/s before, 2520 Gb/s after (conserved", "1.05",
                                     "2023-11-14 22:13:20 UTC"})
            QVERIFY2(t.contains(QLatin1String(expected)), qPrintable(QLatin1String(expected) + QStringLiteral(" not in: ") + t.left(800)));

        // Any other extension is a usage error and writes nothing.
        const QString csv = dir_.filePath(QStringLiteral("whatif.csv"));
        QCOMPARE(runCli(args + QStringList{csv}).code, 2);
        QVERIFY(!QFile::exists(csv));
        QCOMPARE(runCli(args + QStringList{dir_.filePath(QStringLiteral("whatif.txt"))}).code, 2);
        // A file that cannot be written is a store error (as --out FILE.json), naming the file.
        const QString nowhere = dir_.filePath(QStringLiteral("no-such-dir/whatif.html"));
        r = runCli(args + QStringList{nowhere});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(nowhere.toUtf8()), r.err.constData());
    }

    // --out FILE.json replaces the file (temp-then-rename, as HTML and PDF): a reader that opened
    // the previous prediction keeps reading it whole, the new file holds what --json prints, and
    // no temporary is left beside it.
    void jsonOutReplacesTheFileWhole() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("whatif.json"));
        const QByteArray old = "{\"previous\": \"prediction\"}\n";
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(old);
        }
        QFile reader(path);
        QVERIFY(reader.open(QIODevice::ReadOnly));
        const QStringList change{QStringLiteral("--fail"), QStringLiteral("leaf01:20")};
        const Run r = runCli(QStringList{QStringLiteral("whatif"), QStringLiteral("--db"), QString::fromStdString(db_),
                                         QStringLiteral("--out"), path} + change);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(reader.readAll(), old);
        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QJsonObject j = QJsonDocument::fromJson(written.readAll()).object();
        QCOMPARE(j, whatif(change));
        conserved(j);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("whatif.json")});
        // Unwritable: a store error naming the file, nothing left behind.
        const QString nowhere = dir.filePath(QStringLiteral("no-such-dir/whatif.json"));
        const Run bad = runCli(QStringList{QStringLiteral("whatif"), QStringLiteral("--db"), QString::fromStdString(db_),
                                           QStringLiteral("--out"), nowhere} + change);
        QCOMPARE(bad.code, 3);
        QVERIFY2(bad.err.contains(nowhere.toUtf8()), bad.err.constData());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("whatif.json")});
    }

    void unknownNodeIsBadInput() {
        const Run r = runCli({QStringLiteral("whatif"), QStringLiteral("--db"), QString::fromStdString(db_), QStringLiteral("--fail"),
                              QStringLiteral("leaf09:1")});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("no node 'leaf09'"));
        QCOMPARE(runCli({QStringLiteral("whatif"), QStringLiteral("--db"), QString::fromStdString(db_)}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliWhatIf)
#include "tst_cli_whatif.moc"
