// ibdm topology files (cabling plans, ibutils' own samples) and the discovered fabric checked
// against one: what `ibdiagnet -t plan.topo` reports as missing and wrong cables.
#include "cli_run.h"
#include "core/report/document.h"
#include "core/report/report_data.h"
#include "ib_test_util.h"
#include "plan_fixture.h"
#include "report_doc_find.h"
#include "importers/ibdm_topo_importer.h"
#include "importers/ibsim_net_importer.h"
#include "importers/registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <map>

using namespace fabscope;
using namespace ibtest;
using clitest::runCli;

namespace {

struct Parsed {
    Fabric fabric;
    std::vector<Diagnostic> notes;
};

Parsed parse(const std::string& text) {
    DiagnosticSink diag("plan.topo");
    Parsed p;
    p.fabric = IbdmTopoImporter().parse(ImportInput{"plan.topo", text, 0}, diag, {}).fabric;
    p.notes = diag.items();
    return p;
}

const Node* node(const Fabric& f, const std::string& name) {
    for (const Node& n : f.nodes)
        if (n.description == name) return &n;
    return nullptr;
}

// The peer "<node> <port>" of a node's port, "" when it has no cable.
std::string peerOf(const Fabric& f, const std::string& name, const std::string& port) {
    for (const Link& l : f.links)
        for (const auto& [mine, other] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}})
            if (f.node(f.port(mine).node).description == name && f.port(mine).name == port)
                return f.node(f.port(other).node).description + " " + f.port(other).name;
    return {};
}

int failedLine(const std::string& text) {
    try {
        parse(text);
    } catch (const ImportError& e) {
        return static_cast<int>(e.diagnostic().line);
    }
    return -1;
}

void write(const QString& path, const std::string& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.data(), static_cast<qint64>(text.size()));
}

} // namespace

class TestIbCablingPlan : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void realPlanRead() {
        const auto p = parse(readData("ibdm-topo/4-ary-2-tree.topo"));
        const Fabric& f = p.fabric;
        QVERIFY(p.notes.empty());
        // 4 leaf sections of 8 cables: 16 hosts and 4 spines named only as peers.
        QCOMPARE(f.links.size(), std::size_t{32});
        QCOMPARE(f.count(NodeType::Switch), std::size_t{8});
        QCOMPARE(f.count(NodeType::Ca), std::size_t{16});
        QVERIFY(node(f, "SW-0-3") && node(f, "SW-0-3")->type == NodeType::Switch);  // never a section: a switch by its 4 ports
        QVERIFY(node(f, "H-16") && node(f, "H-16")->type == NodeType::Ca);
        QCOMPARE(peerOf(f, "SW-1-2", "6"), std::string("SW-0-1 3"));  // "P6 -> MTS800 SW-0-1 P3": ports named as ibnetdiscover names them
        QCOMPARE(f.links.front().speed, std::string("???"));         // the plan names no speed: none guessed
        const auto missing = parse(readData("ibdm-topo/4-ary-2-tree-missing-sw-link.topo")).fabric;
        QCOMPARE(missing.links.size(), std::size_t{29});
        QCOMPARE(peerOf(missing, "SW-1-2", "6"), std::string());
        QVERIFY(!node(missing, "H-10"));  // its one cable left out: the plan no longer names it
        // A switch with one cable planned is still a switch when another of its type has three.
        const auto small = parse("MTS800 S1\n P1 -> Cougar H-1 P1\n P2 -> Cougar H-2 P1\n P3 -> MTS800 S2 P1\n\nMTS800 S3\n P1 -> Cougar H-3 P1\n").fabric;
        QVERIFY(node(small, "S1")->type == NodeType::Switch);
        QVERIFY(node(small, "S3")->type == NodeType::Switch);
        QVERIFY(node(small, "S2")->type == NodeType::Switch);
        QVERIFY(node(small, "H-3")->type == NodeType::Ca);
    }

    void widthSpeedAndChassisPorts() {
        const auto demo = parse(readData("ibdm-topo/network.topo")).fabric;  // "P1 -4x-5G-> MT23108 H-1 P1"
        QVERIFY(!demo.links.empty());
        QVERIFY(std::all_of(demo.links.begin(), demo.links.end(), [](const Link& l) { return l.width == 4 && l.speed == "DDR"; }));
        QCOMPARE(demo.links.front().capacityBps, 20'000'000'000ULL);
        const auto gz = parse(readData("ibdm-topo/PartialGazelle.topo"));
        QCOMPARE(peerOf(gz.fabric, "GZ1", "L2/P5"), std::string("H17 1"));  // a chassis' leaf port kept as written
        QVERIFY(node(gz.fabric, "GZ1")->type == NodeType::Switch);
        QVERIFY(std::any_of(gz.notes.begin(), gz.notes.end(), [](const Diagnostic& d) { return d.message.find("CFG:") != std::string::npos; }));
    }

    void brokenPlansNameTheirLine() {
        QCOMPARE(failedLine("# plan\n   P1 -> MTS800 SW-0-0 P1\nMTS800 SW-1-0\n"), 2);  // a cable before any system line
        QCOMPARE(failedLine("MTS800 SW-1-0\n   P1 -> MTS800 SW-0-0 P1\n   P2 -> MTS800 SW-0-1\n"), 3);  // no remote port
        QCOMPARE(failedLine("MTS800 SW-1-0 extra words\n   P1 -> MTS800 SW-0-0 P1\n"), 1);
        QCOMPARE(failedLine("# only a comment\n\n"), 0);
        // A port planned twice keeps its first cable, said on the second's line.
        const auto twice = parse("MTS800 SW-1-0\n   P1 -> Cougar H-1 P1\n   P1 -> Cougar H-2 P1\n   P2 -> Cougar H-3 P1\n");
        QCOMPARE(twice.fabric.links.size(), std::size_t{2});
        QVERIFY(std::any_of(twice.notes.begin(), twice.notes.end(), [](const Diagnostic& d) { return d.line == 3 && d.message.find("planned with another cable") != std::string::npos; }));
        const auto odd = parse("MTS800 SW-1-0\n   P1 -4x-7G-> Cougar H-1 P1\n   P2 -> Cougar H-2 P1\n");
        QVERIFY(std::any_of(odd.notes.begin(), odd.notes.end(), [](const Diagnostic& d) { return d.line == 2 && d.message.find("'7G'") != std::string::npos; }));
    }

    void detected() {
        ImporterRegistry reg;
        for (const char* file : {"ibdm-topo/4-ary-2-tree.topo", "ibdm-topo/network.topo", "ibdm-topo/PartialGazelle.topo"}) {
            const auto* imp = reg.detect(readData(file).substr(0, 16384));
            QVERIFY2(imp && imp->name() == "ibdm-topo", file);
        }
        // A large plan's head ends inside a cable line: still a plan (ibutils' RhinoBased512.topo was refused so).
        QCOMPARE(IbdmTopoImporter().detect(readData("ibdm-topo/network.topo").substr(0, 1000)), 85);
        QVERIFY(readData("ibdm-topo/network.topo")[999] != '\n');
        QCOMPARE(IbdmTopoImporter().detect(readData("ibsim/ibnetdiscover.txt")), 0);
        QCOMPARE(IbdmTopoImporter().detect(readData("lst/subnet-2005.lst")), 0);
    }

    // The user's check: import the plan and the fabric, and analyze names the missing cable and
    // the two swapped ones on the discovered ports, and nothing for the cables as planned.
    void fabricCheckedAgainstPlan() {
        const std::string planText = readData("ibdm-topo/4-ary-2-tree.topo");
        const std::string discovered = plantest::miscabledFabric(planText);

        QTemporaryDir dir;
        const QString db = dir.filePath("s.sqlite");
        write(dir.filePath("cabling.topo"), planText);
        write(dir.filePath("fabric.ibnetdiscover"), discovered);
        const auto imp = runCli({"import", "--db", db, dir.filePath("cabling.topo"), dir.filePath("fabric.ibnetdiscover")});
        QVERIFY2(imp.code == 0, imp.err.constData());
        QVERIFY2((imp.out + imp.err).contains("cabling.topo (ibdm-topo, 56 rows)"), (imp.out + imp.err).constData());
        const auto info = runCli({"info", "--db", db});
        QVERIFY2(info.out.contains("fabric.ibnetdiscover"), info.out.constData());  // the fabric shown is the discovered one

        const auto run = runCli({"analyze", "--db", db, "--json"});
        QCOMPARE(run.code, 0);
        std::map<std::string, std::vector<QJsonObject>> byChange;
        for (const auto& v : QJsonDocument::fromJson(run.out).object()["findings"].toArray()) {
            const QJsonObject f = v.toObject();
            if (f["kind"].toString() == "topology_change") byChange[f["metrics"].toObject()["change"].toString().toStdString()].push_back(f);
        }
        QCOMPARE(byChange["removed"].size(), std::size_t{2});
        QStringList removed;
        for (const auto& f : byChange["removed"]) removed << f["summary"].toString();
        removed.sort();
        QCOMPARE(removed, QStringList({"planned link SW-1-2 p2 <-> H-10 p1 is not cabled (cabling plan cabling.topo)",
                                       "planned link SW-1-2 p6 <-> SW-0-1 p3 is not cabled (cabling plan cabling.topo)"}));
        const QJsonObject missing = byChange["removed"].front()["summary"].toString().contains("H-10") ? byChange["removed"].front() : byChange["removed"].back();
        // Named on the discovered switch (its GUID), so the GUI and reports find the port.
        const QJsonObject end = missing["ports"].toArray()[0].toObject();
        QCOMPARE(end["node"].toString(), QStringLiteral("MF0;SW-1-2:MTS800/U1"));
        QVERIFY(end["guid"].toString().startsWith("0x2c9"));
        QCOMPARE(missing["start"].toDouble(), missing["end"].toDouble());  // seen at the fabric's capture; the plan has no date
        QCOMPARE(byChange["moved"].size(), std::size_t{2});
        QStringList moved;
        for (const auto& f : byChange["moved"]) moved << f["summary"].toString();
        moved.sort();
        QCOMPARE(moved, QStringList({"SW-1-0 p1 connects to H-2 p1, the cabling plan cabling.topo says H-1 p1",
                                     "SW-1-0 p2 connects to H-1 p1, the cabling plan cabling.topo says H-2 p1"}));
        QVERIFY(byChange["added"].empty());
        QVERIFY(byChange["width_speed"].empty());  // 4x HDR cabled, no speed planned: no contradiction

        // The report's own section: how many planned cables are in place, and each one that is not;
        // the runs' topology changes table does not list them.
        {
            const Store store(db.toStdString(), Store::Mode::ReadOnly);
            const ReportDocument doc = buildDocument(buildReportData(store, {}));
            const Section* plan = docfind::section(doc, "cabling_plan");
            QVERIFY(plan);
            const std::string text = docfind::paragraphs(*plan);
            QVERIFY2(text.find("28 of 32 planned cables in place; 2 not cabled, 2 on another port than planned, 0 at another width or speed, "
                               "0 cabled between planned nodes but not planned.") != std::string::npos, text.c_str());
            const Table* t = docfind::table(*plan, "cabling_plan");
            QVERIFY(t);
            QCOMPARE(t->rows.size(), std::size_t{4});
            QVERIFY(docfind::table(doc, "topology_changes")->rows.empty());
        }

        // `diff` with the plan named on either side checks the fabric against it the same way.
        const auto diff = runCli({"diff", "--db", db, "--snapshot", "fabric.ibnetdiscover", "--snapshot", "cabling.topo"});
        QCOMPARE(diff.code, 0);
        QVERIFY2(diff.out.contains("4 changes") && diff.out.contains("removed    planned link SW-1-2 p2 <-> H-10 p1 is not cabled"), diff.out.constData());
    }

    // ibsim's net file, the fabric the simulation behind tests/data/ibsim/ was built from: read as a plan.
    void ibsimNetFileRead() {
        DiagnosticSink diag("fattree.net");
        const Fabric f = IbsimNetImporter().parse(ImportInput{"fattree.net", readData("ibsim/fattree.net"), 0}, diag, {}).fabric;
        QVERIFY(diag.items().empty());
        QCOMPARE(f.count(NodeType::Switch), std::size_t{6});
        QCOMPARE(f.count(NodeType::Ca), std::size_t{8});
        QCOMPARE(f.links.size(), std::size_t{16});
        QCOMPARE(peerOf(f, "leaf03", "4"), std::string("gpu006 mlx5_0 1"));
        for (const Link& l : f.links) {  // w=2 e=4: 4x HDR, but leaf03 p4 <-> gpu006 w=1: 1x
            const bool narrow = peerOf(f, "leaf03", "4") == f.node(f.port(l.b).node).description + " " + f.port(l.b).name ||
                                peerOf(f, "leaf03", "4") == f.node(f.port(l.a).node).description + " " + f.port(l.a).name;
            QCOMPARE(l.width, std::optional<int>(narrow ? 1 : 4));
            QCOMPARE(l.speed, std::string("HDR"));
        }
        ImporterRegistry reg;
        for (const char* file : {"ibsim/fattree.net", "ibsim-net/net.2sw2path4hca"}) {
            const auto* imp = reg.detect(readData(file).substr(0, 16384));
            QVERIFY2(imp && imp->name() == "ibsim-net", file);
        }
        QCOMPARE(IbsimNetImporter().detect(readData("ibsim/fattree.net").substr(0, 500)), 80);  // a head cut inside a line
        QCOMPARE(IbsimNetImporter().detect(readData("ibsim/ibnetdiscover.txt")), 0);  // GUID ids: ibnetdiscover's
        QCOMPARE(IbsimNetImporter().detect(readData("ibdm-topo/4-ary-2-tree.topo")), 0);
        try {
            IbsimNetImporter().parse(ImportInput{"x.net", "Switch 8 \"s1\"\n[1] \"h1\"[1]\n[x] \"h2\"[1]\n", 0}, diag, {});
            QFAIL("a port line without its number must fail");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, std::int64_t{3});
        }
    }

    // The real ibnetdiscover of the simulated fabric matches the net file it was built from; a
    // net file that planned leaf03 p4 at 4x names the 1x link against it.
    void realCaptureCheckedAgainstItsNetFile() {
        for (const auto& [net, expected] : {std::pair{readData("ibsim/fattree.net"), QString()},
                                            std::pair{replaceAll(replaceAll(readData("ibsim/fattree.net"), "\"gpu006 mlx5_0\"[1]\tw=1", "\"gpu006 mlx5_0\"[1]\tw=2"), "\"leaf03\"[4]\tw=1", "\"leaf03\"[4]\tw=2"),
                                                      QStringLiteral("leaf03 p4 <-> gpu006 mlx5_0 p1 runs 1xHDR, the cabling plan fabric.net says 4xHDR")}}) {
            QTemporaryDir dir;
            const QString db = dir.filePath("s.sqlite");
            write(dir.filePath("fabric.net"), net);
            const auto imp = runCli({"import", "--db", db, QStringLiteral(FABSCOPE_TEST_DATA "/ibsim/ibnetdiscover.txt"), dir.filePath("fabric.net")});
            QVERIFY2(imp.code == 0 && imp.err.contains("fabric.net (ibsim-net"), imp.err.constData());
            QStringList changes;
            for (const auto& v : QJsonDocument::fromJson(runCli({"analyze", "--db", db, "--json"}).out).object()["findings"].toArray())
                if (v.toObject()["kind"].toString() == "topology_change") changes << v.toObject()["summary"].toString();
            QCOMPARE(changes, expected.isEmpty() ? QStringList() : QStringList{expected});
        }
    }

    // A plan alone is the fabric drawn and analysed; a second plan is not a run to diff against.
    void planAlone() {
        QTemporaryDir dir;
        const QString db = dir.filePath("s.sqlite");
        write(dir.filePath("a.topo"), readData("ibdm-topo/4-ary-2-tree.topo"));
        QCOMPARE(runCli({"import", "--db", db, dir.filePath("a.topo")}).code, 0);
        Store store(db.toStdString(), Store::Mode::ReadOnly);
        const auto latest = store.latestSnapshot();
        QVERIFY(latest && latest->planned && latest->label == "a.topo");
        QCOMPARE(store.loadFabric(latest->id).links.size(), std::size_t{32});
        const auto run = runCli({"analyze", "--db", db, "--json"});
        QCOMPARE(run.code, 0);
        QVERIFY(!run.out.contains("topology_change"));
    }
};

QTEST_GUILESS_MAIN(TestIbCablingPlan)
#include "tst_ib_cabling_plan.moc"
