// The findings JSON is written straight to text (core/analysis/json_text.h) and must read, byte for
// byte, as nlohmann's dump(indent) of the same document, which is what the contract's consumers
// and the report's JSON (it parses that text back) were written against. Each document here is
// built as an nlohmann tree, written again through JsonText by walking the tree, and the two texts
// compared, at every indent the code uses and at one line.
#include "core/analysis/findings.h"
#include "core/analysis/json_text.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cmath>
#include <limits>
#include <string>

using namespace fabscope;
using nlohmann::ordered_json;

namespace {

void write(JsonText& w, const ordered_json& j) {
    switch (j.type()) {
    case ordered_json::value_t::object:
        w.beginObject();
        for (const auto& [k, v] : j.items()) {
            w.key(k);
            write(w, v);
        }
        w.endObject();
        break;
    case ordered_json::value_t::array:
        w.beginArray();
        for (const auto& v : j) write(w, v);
        w.endArray();
        break;
    case ordered_json::value_t::string: w.value(j.get_ref<const std::string&>()); break;
    case ordered_json::value_t::number_integer:
    case ordered_json::value_t::number_unsigned: w.value(j.get<std::int64_t>()); break;
    case ordered_json::value_t::number_float: w.number(j.get<double>()); break;
    default: QFAIL("a type the findings JSON does not use");
    }
}

std::string through(const ordered_json& j, int indent) {
    JsonText w(indent);
    write(w, j);
    return w.take();
}

ordered_json document() {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    ordered_json doubles = ordered_json::array();
    for (double d : {0.1, 1.5, -2.25, 1e-5, 0.0001, 123456.789, 1e20, 1e300, 5e-324, 0.30000000000000004, 1.0 / 3.0, 9.5e15, nan, inf, -inf})
        doubles.push_back(d);
    ordered_json j;
    j["fabscope_findings"] = 1;
    j["window"] = {{"start", 1767225600}, {"end", -42}};
    j["empty_object"] = ordered_json::object();
    j["empty_array"] = ordered_json::array();
    j["doubles"] = doubles;
    j["texts"] = {"plain", "", "quote \" and back\\slash", "tab\tnew\nline\rfeed\fbell\b", std::string("nul\0x\x01\x1f\x7f", 8),
                  "héllo \xe2\x86\x92 spine", "ends with é"};
    j["nested"] = {{"ports", {{{"node", "leaf01"}, {"guid", "0xc42a103"}, {"port", 33}}, {{"node", "sw"}, {"port", "Ethernet8"}}}},
                   {"metrics", ordered_json::object()},
                   {"deep", {{{"a", ordered_json::array({ordered_json::array(), ordered_json::object(), 0})}}}}};
    return j;
}

} // namespace

class TestJsonText : public QObject {
    Q_OBJECT
private slots:
    void sameTextAsNlohmann_data() {
        QTest::addColumn<int>("indent");
        QTest::newRow("indent 2 (analyze --json)") << 2;
        QTest::newRow("indent 4") << 4;
        QTest::newRow("indent 0") << 0;
        QTest::newRow("one line (the report's JSON)") << -1;
    }
    void sameTextAsNlohmann() {
        QFETCH(int, indent);
        const ordered_json j = document();
        const std::string want = j.dump(indent), got = through(j, indent);
        if (got != want) {
            const auto at = std::mismatch(want.begin(), want.end(), got.begin(), got.end()).first - want.begin();
            QFAIL(qPrintable(QStringLiteral("differs at byte %1: nlohmann \"%2\", JsonText \"%3\"")
                                 .arg(at)
                                 .arg(QString::fromStdString(want.substr(static_cast<std::size_t>(at), 40)))
                                 .arg(QString::fromStdString(got.substr(static_cast<std::size_t>(at), 40)))));
        }
        // And it reads back as the same document (NaN and infinities as null, as nlohmann writes them).
        QCOMPARE(ordered_json::parse(got), ordered_json::parse(want));
    }

    // A lone root value, and bytes that are not UTF-8: refused the way nlohmann refuses them.
    void rootValuesAndBadBytes() {
        QCOMPARE(through(ordered_json(0.1), 2), ordered_json(0.1).dump(2));
        QCOMPARE(through(ordered_json("x"), -1), std::string("\"x\""));
        JsonText w(2);
        QVERIFY_THROWS_EXCEPTION(ordered_json::type_error, w.value(std::string("bad \xff byte")));
    }

    // The findings JSON of a report with every optional part: what the contract's readers parse.
    void findingsDocumentParses() {
        Finding f;
        f.id = "ecmp_imbalance-1";
        f.kind = FindingKind::EcmpImbalance;
        f.start = 1767225600;
        f.end = 1767225700.5;
        f.summary = "agg00-00 p13 -> core0004 p1 carries 1.6x the mean";
        f.ports = {{"agg00-00", "0xc42a10300000180", "13"}, {"core0004", "", "Ethernet8"}};
        f.origin = PortRef{"leaf", "0x1", "7"};
        f.metrics = {{"peak_ratio", 1.706}, {"group_size", 8.0}, {"job", std::string("llama")}};
        f.incident = 3;
        const ordered_json j = ordered_json::parse(findingsJson({1767225600, 1767229200, {f}, {}}));
        QCOMPARE(j["window"]["end"].get<std::int64_t>(), std::int64_t{1767229200});
        const auto& o = j["findings"][0];
        QCOMPARE(o["kind"].get<std::string>(), std::string("ecmp_imbalance"));
        QCOMPARE(o["end"].get<double>(), 1767225700.5);
        QCOMPARE(o["ports"][0]["port"].get<int>(), 13);
        QVERIFY(!o["ports"][1].contains("guid"));
        QCOMPARE(o["ports"][1]["port"].get<std::string>(), std::string("Ethernet8"));
        QCOMPARE(o["origin"]["port"].get<int>(), 7);
        QVERIFY(!o.contains("path"));
        QCOMPARE(o["metrics"]["peak_ratio"].get<double>(), 1.706);
        QVERIFY(o["metrics"]["group_size"].is_number_integer());
        QCOMPARE(o["metrics"]["job"].get<std::string>(), std::string("llama"));
        QCOMPARE(o["incident"].get<int>(), 3);
    }
};

QTEST_APPLESS_MAIN(TestJsonText)
#include "tst_json_text.moc"
