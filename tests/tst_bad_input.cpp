// The bad-input corpus (issue 8): every importer, fed truncated, NUL-laden, megabyte-line,
// UTF-16, non-UTF-8 and junk variants of a real sample, either imports (with warnings where that
// is right) or fails that file with a clear FILE:LINE message and leaves the store exactly as it
// was. No variant may crash or hang the importer.
#include "importers/import_runner.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <set>
#include <sstream>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "store_dump.h"

using namespace fabscope;
namespace fs = std::filesystem;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeFile(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// Offsets just after each newline: where a capture cut short by a full disk or a killed
// terminal ends. At most `limit` of them, spread evenly, plus the middle of one line.
std::vector<std::size_t> cutPoints(const std::string& text, std::size_t limit) {
    std::vector<std::size_t> lineStarts;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n' && i + 1 < text.size()) lineStarts.push_back(i + 1);
    std::vector<std::size_t> cuts;
    const std::size_t step = std::max<std::size_t>(1, lineStarts.size() / limit);
    for (std::size_t i = 0; i < lineStarts.size(); i += step) cuts.push_back(lineStarts[i]);
    if (!lineStarts.empty()) cuts.push_back(lineStarts[lineStarts.size() / 2] + 3);  // mid-line
    return cuts;
}

std::string utf16le(const std::string& text) {
    std::string out("\xFF\xFE", 2);
    for (char c : text) {
        out.push_back(c);
        out.push_back('\0');
    }
    return out;
}

std::string insertAtMiddleLine(const std::string& text, const std::string& what) {
    const auto nl = text.find('\n', text.size() / 2);
    const std::size_t at = nl == std::string::npos ? text.size() : nl + 1;
    return text.substr(0, at) + what + text.substr(at);
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    ImporterRegistry registry_;
    std::string baseStore_, baseDump_;
    int variant_ = 0;

    std::string p(const std::string& name) const { return dir_.filePath(QString::fromStdString(name)).toStdString(); }

    // Imports `bytes` as `format` into a copy of the base store; checks the contract and returns
    // the outcome so callers can ask for more.
    FileOutcome importVariant(const std::string& format, const std::string& what, const std::string& bytes,
                              std::vector<Diagnostic>* diagnosticsOut = nullptr, const std::string& fileName = "input.txt") {
        const std::string stem = "v" + std::to_string(++variant_);
        fs::create_directory(p(stem));
        const std::string file = p(stem + "/" + fileName), store = p(stem + ".sqlite");
        writeFile(file, bytes);
        fs::copy_file(baseStore_, store);
        ImportSummary summary;
        {
            Store s(store);
            ImportRunner runner(s, registry_);
            ImportOptions options;
            options.format = format;
            summary = runner.run({file}, options);
        }
        const std::string context = format + " / " + what;
        if (summary.files.size() != 1) {
            QTest::qFail(("expected one outcome for " + context).c_str(), __FILE__, __LINE__);
            return {};
        }
        const FileOutcome outcome = summary.files.front();
        if (outcome.status == FileStatus::Failed) {
            const auto error = std::find_if(summary.diagnostics.begin(), summary.diagnostics.end(),
                                            [](const Diagnostic& d) { return d.severity == Severity::Error; });
            if (error == summary.diagnostics.end() || error->message.empty() || error->file != file)
                QTest::qFail(("failed without a clear error: " + context).c_str(), __FILE__, __LINE__);
            else if (error->line < 1)
                QTest::qFail(("error without a line number: " + context + ": " + error->message).c_str(), __FILE__, __LINE__);
            if (dumpStore(store) != baseDump_)
                QTest::qFail(("a failed import changed the store: " + context).c_str(), __FILE__, __LINE__);
        }
        if (diagnosticsOut) *diagnosticsOut = summary.diagnostics;
        fs::remove(store);
        fs::remove_all(p(stem));
        return outcome;
    }

    struct FormatSample {
        std::string format, path, fileName;
        bool intactImports = true;  // false: the real sample itself is cut or off-topic
    };
    // tests/data/format_samples.txt: format, sample path, file name given, whether it imports intact.
    static std::vector<FormatSample> formatSamples() {
        std::vector<FormatSample> out;
        std::istringstream in(readFile(std::string(FABSCOPE_TEST_DATA) + "/format_samples.txt"));
        for (std::string line; std::getline(in, line);) {
            if (line.empty() || line[0] == '#') continue;
            std::istringstream row(line);
            FormatSample s;
            std::string intact;
            row >> s.format >> s.path >> s.fileName >> intact;
            s.intactImports = intact == "yes";
            out.push_back(std::move(s));
        }
        // By convention, with no line: every file of tests/data/formats/<format>/ is a sample of
        // that format, given under its own name, that imports intact.
        std::error_code ec;
        for (const auto& dir : fs::directory_iterator(std::string(FABSCOPE_TEST_DATA) + "/formats", ec)) {
            if (!dir.is_directory()) continue;
            std::vector<std::string> files;
            for (const auto& f : fs::directory_iterator(dir.path()))
                if (f.is_regular_file() && !f.path().filename().string().starts_with('.')) files.push_back(f.path().filename().string());
            std::sort(files.begin(), files.end());
            for (const auto& f : files)
                out.push_back({dir.path().filename().string(), "formats/" + dir.path().filename().string() + "/" + f, f, true});
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        baseStore_ = p("base.sqlite");
        {
            Store s(baseStore_);
            ImportRunner runner(s, registry_);
            const auto summary = runner.run({std::string(FABSCOPE_TEST_DATA) + "/ibsim/ibnetdiscover.txt"}, {});
            QVERIFY(!summary.anyFailed());
        }
        baseDump_ = dumpStore(baseStore_);
    }

    void eachImporterSurvivesDamagedSamples_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("fileName");  // some formats take the host from the file name
        QTest::addColumn<bool>("intactImports");  // false: the real sample itself is cut or off-topic
        for (const auto& s : formatSamples())
            QTest::newRow((s.format + " " + s.path).c_str())
                << QString::fromStdString(s.format) << QString::fromStdString(s.path) << QString::fromStdString(s.fileName) << s.intactImports;
    }

    void everyRegisteredFormatHasASample() {
        // A new importer is damaged and fuzzed once its sample is listed in tests/data/format_samples.txt
        // or lies in tests/data/formats/<format>/.
        std::set<std::string> listed;
        for (const auto& s : formatSamples()) {
            listed.insert(s.format);
            QVERIFY2(registry_.byName(s.format), ("an unknown format in tests/data/format_samples.txt or tests/data/formats/: " + s.format).c_str());
        }
        for (const auto name : registry_.names())
            QVERIFY2(listed.count(std::string(name)), ("no sample in tests/data/format_samples.txt or tests/data/formats/ for " + std::string(name)).c_str());
    }

    void eachImporterSurvivesDamagedSamples() {
        QFETCH(QString, format);
        QFETCH(QString, sample);
        QFETCH(QString, fileName);
        QFETCH(bool, intactImports);
        const std::string fmt = format.toStdString(), name = fileName.toStdString();
        const std::string text = readFile(std::string(FABSCOPE_TEST_DATA) + "/" + sample.toStdString());
        QVERIFY2(!text.empty(), "sample missing");

        // (a blank line more, so the base store's own topology file is not a re-import)
        const auto intact = importVariant(fmt, "intact", text + "\n", nullptr, name);
        if (intactImports) QCOMPARE(intact.status, FileStatus::Imported);
        for (const std::size_t cut : cutPoints(text, 30)) {
            importVariant(fmt, "truncated at byte " + std::to_string(cut), text.substr(0, cut), nullptr, name);
            if (QTest::currentTestFailed()) return;
        }
        importVariant(fmt, "NUL bytes", insertAtMiddleLine(text, std::string("ab\0\0cd\n", 7)), nullptr, name);
        importVariant(fmt, "a 2 MB line", insertAtMiddleLine(text, std::string(2 << 20, 'x') + "\n"), nullptr, name);
        importVariant(fmt, "Latin-1 bytes", insertAtMiddleLine(text, "caf\xE9 \xFF\xFE\n"), nullptr, name);
        importVariant(fmt, "binary junk", std::string("\x7F" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0", 20) + text.substr(0, 64),
                      nullptr, name);

        std::vector<Diagnostic> diagnostics;
        const auto wide = importVariant(fmt, "UTF-16", utf16le(text), &diagnostics, name);
        QCOMPARE(wide.status, FileStatus::Failed);
        QVERIFY2(std::any_of(diagnostics.begin(), diagnostics.end(),
                             [](const Diagnostic& d) { return d.message.find("UTF-16") != std::string::npos; }),
                 "UTF-16 input should be named as such");
    }

    void emptyAndJunkFilesAreNamedWithoutAFormat() {
        std::vector<Diagnostic> diagnostics;
        QCOMPARE(importVariant("", "empty", "", &diagnostics).status, FileStatus::Failed);
        QVERIFY(diagnostics.back().message.find("empty") != std::string::npos);
        QCOMPARE(importVariant("", "junk", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), &diagnostics).status, FileStatus::Failed);
        QVERIFY(diagnostics.back().message.find("unrecognised") != std::string::npos);
        QCOMPARE(importVariant("", "UTF-16", utf16le("# Topology file: generated\n"), &diagnostics).status, FileStatus::Failed);
        QVERIFY(diagnostics.back().message.find("UTF-16") != std::string::npos);
    }

    // A UTF-8 byte-order mark (Windows editors add one) is not part of the first line.
    void utf8ByteOrderMarkIsIgnored() {
        const std::string text = readFile(std::string(FABSCOPE_TEST_DATA) + "/ibsim/ibnetdiscover.txt");
        QCOMPARE(importVariant("", "UTF-8 BOM", "\xEF\xBB\xBF" + text).status, FileStatus::Imported);
    }

    // Long CSV: counters must be cumulative and timestamps UNIX seconds.
    void longCsvRejectsNegativeCountersAndMillisecondTimes() {
        std::vector<Diagnostic> diagnostics;
        const std::string head = "timestamp,node,port,counter,value\n";
        QCOMPARE(importVariant("csv", "negative", head + "1700000000,leaf01,1,xmit_bytes,5\n1700000010,leaf01,1,xmit_bytes,-4\n",
                               &diagnostics).status,
                 FileStatus::Failed);
        QCOMPARE(diagnostics.back().line, std::int64_t{3});
        const auto ms = importVariant("csv", "milliseconds",
                                      head + "1700000000000,leaf01,1,xmit_bytes,5\n1700000010000,leaf01,1,xmit_bytes,9\n", &diagnostics);
        QCOMPARE(ms.status, FileStatus::Failed);
        QVERIFY2(diagnostics.back().message.find("millisecond") != std::string::npos, diagnostics.back().message.c_str());
    }

    // Numbers no counter can hold: beyond 64 bits, infinite, not a number.
    void longCsvRejectsValuesOutOfRange() {
        const std::string head = "timestamp,node,port,counter,value\n1700000000,leaf01,1,xmit_bytes,5\n";
        for (const std::string bad : {"99999999999999999999999999", "1e400", "inf", "nan"}) {
            std::vector<Diagnostic> diagnostics;
            QCOMPARE(importVariant("csv", "out of range", head + "1700000010,leaf01,1,xmit_bytes," + bad + "\n", &diagnostics).status,
                     FileStatus::Failed);
            QCOMPARE(diagnostics.back().line, std::int64_t{3});
            QVERIFY2(diagnostics.back().message.find(bad) != std::string::npos, diagnostics.back().message.c_str());
        }
        // 2^64-1, a saturated 64-bit counter, is a value the analysis knows to skip: imported.
        QCOMPARE(importVariant("csv", "ceiling", head + "1700000010,leaf01,1,xmit_bytes,18446744073709551615\n").status,
                 FileStatus::Imported);
    }

    // Two node blocks with one GUID: imported (the fabric is still worth seeing) with a warning
    // that names the GUID and both lines.
    void duplicateGuidIsNamedWithBothLines() {
        const std::string text = readFile(std::string(FABSCOPE_TEST_DATA) + "/ibsim/ibnetdiscover.txt");
        const auto first = text.find("switchguid=");
        const auto second = text.find("switchguid=", first + 1);
        QVERIFY(first != std::string::npos && second != std::string::npos);
        const auto guidOf = [&](std::size_t at) { return text.substr(at + 11, text.find('(', at) - at - 11); };
        const std::string dupGuid = guidOf(first), otherGuid = guidOf(second);
        // The second switch's block claims the first switch's GUID (switchguid and node line).
        const auto blockEnd = text.find("\n\n", second);
        std::string block = text.substr(second, blockEnd - second);
        const auto hexOf = [](const std::string& g) { return g.substr(2); };  // without "0x"
        for (std::size_t at; (at = block.find(hexOf(otherGuid))) != std::string::npos;) block.replace(at, hexOf(otherGuid).size(), hexOf(dupGuid));
        const std::string dup = text.substr(0, second) + block + text.substr(blockEnd);
        std::vector<Diagnostic> diagnostics;
        QCOMPARE(importVariant("ibnetdiscover", "duplicate GUID", dup, &diagnostics).status, FileStatus::Imported);
        const auto it = std::find_if(diagnostics.begin(), diagnostics.end(),
                                     [](const Diagnostic& d) { return d.message.find("second block") != std::string::npos; });
        QVERIFY(it != diagnostics.end());
        const auto lineOf = [&](std::size_t at) { return 1 + std::count(dup.begin(), dup.begin() + static_cast<std::ptrdiff_t>(at), '\n'); };
        const auto firstNodeLine = lineOf(dup.find("Switch", first)), secondNodeLine = lineOf(dup.find("Switch", second));
        QCOMPARE(it->line, static_cast<std::int64_t>(secondNodeLine));
        QVERIFY2(it->message.find("line " + std::to_string(firstNodeLine)) != std::string::npos, it->message.c_str());
        QVERIFY2(it->message.find(dupGuid) != std::string::npos, it->message.c_str());
        QCOMPARE(it->severity, Severity::Warning);
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_bad_input.moc"
