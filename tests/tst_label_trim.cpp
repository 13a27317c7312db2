// The fabric view's row labels keep what differs (views/label_trim.h): the start and end every
// label of a row shares are dropped at a word boundary, never a whole label.
#include "views/label_trim.h"

#include <QtTest>

#include <cstdio>

using namespace fabscope;
using Labels = std::vector<std::string>;

namespace {

QByteArray show(const Labels& l) {
    QByteArray out;
    for (const auto& s : l) out += '"' + QByteArray::fromStdString(s) + "\" ";
    return out;
}

} // namespace

class TestLabelTrim : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seleneSwitchesKeepTheirName() {
        Labels in, want;
        for (int i = 1; i <= 20; ++i) {
            char name[32];
            std::snprintf(name, sizeof name, "sel-spine-%03d", i);
            in.push_back(std::string("MF0;") + name + ":MQM8700/U1");
            want.push_back(name);
        }
        const Labels out = trimCommonAffixes(in);
        QVERIFY2(out == want, show(out).constData());
        // Cut at parts of words too, when the row has no room for whole words.
        const Labels parts = trimCommonAffixes(in, LabelCut::Parts);
        QCOMPARE(parts.front(), std::string("001"));
        QCOMPARE(parts.back(), std::string("020"));
        // Leaves and spines of the real capture in one row: the shared "S" is no word, so kept.
        const Labels mixed = trimCommonAffixes({"MF0;SLG04-16:MQM8700/U1", "MF0;SSPINE4-16:MQM8700/U1", "MF0;SLG04-15:MQM8700/U1"});
        QVERIFY2((mixed == Labels{"SLG04-16", "SSPINE4-16", "SLG04-15"}), show(mixed).constData());
    }

    void ndrSwitchesKeepTheirDistinctMiddle() {
        const Labels in{"Quantum-2 su1-leaf01 Mellanox Technologies", "Quantum-2 su1-leaf02 Mellanox Technologies",
                        "Quantum-2 su2-spine01 Mellanox Technologies", "Quantum-2 su2-spine10 Mellanox Technologies"};
        const Labels out = trimCommonAffixes(in);
        QVERIFY2((out == Labels{"su1-leaf01", "su1-leaf02", "su2-spine01", "su2-spine10"}), show(out).constData());
        // Every switch alike: nothing differs, nothing is dropped (not "Technologies").
        const Labels alike(5, "Quantum-2 Mellanox Technologies");
        QCOMPARE(trimCommonAffixes(alike), alike);
    }

    void twoLabelsAreKeptWhole() {
        const Labels two{"MF0;sel-spine-001:MQM8700/U1", "MF0;sel-spine-002:MQM8700/U1"};
        QCOMPARE(trimCommonAffixes(two), two);
        QCOMPARE(trimCommonAffixes(Labels{}), Labels{});
    }

    void labelsDistinctAtTheStartAreKept() {
        const Labels in{"ib-core-01 room A", "leaf12 rack 4", "gateway-west"};
        QCOMPARE(trimCommonAffixes(in), in);
        QCOMPARE(trimCommonAffixes(in, LabelCut::Parts), in);
    }

    void noWordIsSplitAndNoLabelIsLeftEmpty() {
        // The shared "dgx0" is not a word: nothing goes.
        const Labels hosts{"dgx01", "dgx02", "dgx03"};
        QCOMPARE(trimCommonAffixes(hosts), hosts);
        // "rack 1" is the whole of the first label once "rack " is dropped from the others' start.
        const Labels in{"rack 1", "rack 1 left", "rack 1 right"};
        const Labels out = trimCommonAffixes(in);
        QVERIFY2((out == Labels{"1", "1 left", "1 right"}), show(out).constData());
        // A shared end alone goes too, with the separator before it.
        const Labels tail{"a x", "b a x", "c a x"};
        const Labels cut = trimCommonAffixes(tail);
        QVERIFY2((cut == Labels{"a", "b a", "c a"}), show(cut).constData());
        // "x" shares no " x": nothing goes.
        const Labels whole{"x", "a x", "b x"};
        QCOMPARE(trimCommonAffixes(whole), whole);
        // Shared start and end are the whole of "a; x": it is kept whole, the others lose them.
        const Labels empty = trimCommonAffixes({"a; x", "a;b; x", "a;c; x"});
        QVERIFY2((empty == Labels{"a; x", "b", "c"}), show(empty).constData());
    }

    void utf8IsCutOnlyAtAsciiSeparators() {
        const Labels in{"Zürich;sw-é1:X", "Zürich;sw-é2:X", "Zürich;sw-é3:X"};
        const Labels out = trimCommonAffixes(in);
        QVERIFY2((out == Labels{"sw-é1", "sw-é2", "sw-é3"}), show(out).constData());
        for (const auto& s : trimCommonAffixes(in, LabelCut::Parts)) QVERIFY(QString::fromStdString(s).toStdString() == s);
    }
};

QTEST_MAIN(TestLabelTrim)
#include "tst_label_trim.moc"
