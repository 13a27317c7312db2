// The long CSV: rows become chunked series; every bad row is named by file and line.
#include "core/store/store.h"
#include "importers/long_csv_importer.h"

#include <sqlite3.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include <QTemporaryDir>
#include <QtTest>

using namespace fabscope;

class TestLongCsv : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    int n_ = 0;

    // Parses `text` into a fresh store (with a one-switch topology) and returns the store path.
    std::string import(const std::string& text, std::int64_t* rows = nullptr, std::vector<Diagnostic>* warnings = nullptr) {
        const std::string path = dir_.filePath(QStringLiteral("s%1.sqlite").arg(++n_)).toStdString();
        Store store(path);
        Store::Transaction tx(store);
        Fabric f;
        f.nodes.push_back({NodeType::Switch, "0x1c34da0300728866", "leaf07", "", 40, 3});
        store.writeSnapshot(f, "t", 0);
        SampleWriter writer(store);
        DiagnosticSink diag("counters.csv");
        const auto r = LongCsvImporter().parse(ImportInput{"counters.csv", text, 0}, writer, diag, {});
        writer.flush();
        tx.commit();
        if (rows) *rows = r;
        if (warnings) *warnings = diag.items();
        return path;
    }

    void expectError(const std::string& text, std::int64_t line, const char* words) {
        try {
            import(text);
            QFAIL("expected an import error");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, line);
            QCOMPARE(e.diagnostic().file, std::string("counters.csv"));
            QVERIFY2(e.diagnostic().message.find(words) != std::string::npos, e.diagnostic().message.c_str());
        }
    }

private Q_SLOTS:
    void rowsBecomeSeriesMappedToTheFabric() {
        std::int64_t rows = 0;
        const auto path = import("timestamp,node,port,counter,value\n"
                                 "1700000000,leaf07,33,xmit_bytes,100\n"
                                 "1700000010.5,leaf07,33,xmit_bytes,300\n"
                                 "1700000000,0x1C34DA0300728866,34,rcv_bytes,7\n"   // GUID, any case
                                 "1700000000,ghost,1,rcv_bytes,1\n",                 // not in the fabric
                                 &rows);
        QCOMPARE(rows, std::int64_t{4});
        Store s(path, Store::Mode::ReadOnly);
        const auto info = s.info();
        QCOMPARE(info.series, std::size_t{3});
        QCOMPARE(info.unmappedSeries, std::size_t{1});
        QCOMPARE(info.samples, std::size_t{4});
        const auto series = s.series();
        const auto xmit = std::find_if(series.begin(), series.end(), [](auto& x) { return x.counter == "xmit_bytes"; });
        QVERIFY(xmit != series.end());
        QVERIFY(xmit->deviceId != 0);
        QCOMPARE(xmit->unit, std::string("bytes"));
        const auto data = s.loadSeries(xmit->id);
        QCOMPARE(data.timesMs, (std::vector<std::int64_t>{1700000000000LL, 1700000010500LL}));
        QCOMPARE(data.values, (std::vector<double>{100, 300}));
    }

    void perfqueryAliasCountsFourByteWords() {
        const auto path = import("1700000000,leaf07,1,PortXmitData,1000\n");
        Store s(path, Store::Mode::ReadOnly);
        const auto series = s.series();
        QCOMPARE(series.front().counter, std::string("xmit_bytes"));
        QCOMPARE(s.loadSeries(series.front().id).values.front(), 4000.0);
    }

    void unknownCounterIsKeptAndReported() {
        std::vector<Diagnostic> warnings;
        import("1700000000,leaf07,1,my_vendor_counter,5\n1700000010,leaf07,1,my_vendor_counter,6\n", nullptr, &warnings);
        QCOMPARE(warnings.size(), std::size_t{1});
        QCOMPARE(warnings.front().line, std::int64_t{1});
    }

    void quotedNodeNames() {
        const auto path = import("1700000000,\"rack \"\"A\"\", leaf\",1,rcv_pkts,5\n");
        Store s(path, Store::Mode::ReadOnly);
        QCOMPARE(s.series().front().nodeRef, std::string("rack \"A\", leaf"));
        // Names longer than a short-string buffer: the series is named from the unquoted fields
        // while they are still alive (the ASan build reads freed memory otherwise).
        const auto longer = import("1700000000,\"rack \"\"B\"\", leaf-with-a-long-name\",\"Ethernet12, breakout 3\",rcv_pkts,5\n");
        Store t(longer, Store::Mode::ReadOnly);
        QCOMPARE(t.series().front().nodeRef, std::string("rack \"B\", leaf-with-a-long-name"));
        QCOMPARE(t.series().front().port, std::string("Ethernet12, breakout 3"));
    }

    void errorsNameTheLine() {
        expectError("timestamp,node,port,counter,value\n1700000000,leaf07,1,xmit_bytes,1\nnot-a-time,leaf07,1,xmit_bytes,2\n",
                    3, "bad timestamp");
        expectError("1700000000,leaf07,1,xmit_bytes,1\n1700000001,leaf07,1,xmit_bytes\n", 2, "expected 5 fields");
        expectError("1700000000,leaf07,1,xmit_bytes,12abc\n", 1, "bad value");
        expectError("1700000000,leaf07,1,xmit_bytes,-4\n", 1, "negative");
        expectError("1700000000,,1,xmit_bytes,4\n", 1, "empty node");
        expectError("timestamp,node,counter,value\n", 1, "header");
        expectError("timestamp,node,port,counter,value\n", 0, "no data rows");
    }

    // A file over 4 MiB is parsed in parts on worker threads: the store, the first error's line
    // and the warnings' lines must be what one pass gives.
    static std::string bigCsv(std::int64_t rows, std::int64_t badRowA = -1, std::int64_t badRowB = -1, std::int64_t vendorRow = -1) {
        std::string text = "timestamp,node,port,counter,value\n";
        for (std::int64_t r = 0; r < rows; ++r) {
            const std::int64_t t = 1700000000 + (r / 200) * 10, port = r % 200 / 2 + 1;
            const char* counter = r == vendorRow ? "vendor_thing" : (r % 2 ? "rcv_bytes" : "xmit_bytes");
            text += (r == badRowA || r == badRowB ? std::string("oops") : std::to_string(t)) + (port % 3 ? ",leaf07," : ",\"other, sw\",") +
                    std::to_string(port) + "," + counter + "," + std::to_string(r * 1000 + port) + "\n";
        }
        return text;
    }
    std::vector<std::string> contentOf(const std::string& path) {
        Store s(path, Store::Mode::ReadOnly);
        std::vector<std::string> out;
        for (const auto& x : s.series()) {
            std::string row = std::to_string(x.id) + " " + x.nodeRef + "/" + x.port + "/" + x.counter + ":";
            const auto data = s.loadSeries(x.id);
            for (std::size_t i = 0; i < data.timesMs.size(); ++i) row += " " + std::to_string(data.timesMs[i]) + "=" + std::to_string(data.values[i]);
            out.push_back(std::move(row));
        }
        return out;
    }

    void partsOnThreadsGiveWhatOnePassGives() {
        const std::string text = bigCsv(300'000, -1, -1, 150'123);
        QVERIFY(text.size() > 3 * (4u << 20));  // three parts at three threads
        std::vector<Diagnostic> w1, w3;
        std::int64_t rows1 = 0, rows3 = 0;
        qputenv("FABSCOPE_THREADS", "1");
        const auto one = contentOf(import(text, &rows1, &w1));
        qputenv("FABSCOPE_THREADS", "3");
        const auto three = contentOf(import(text, &rows3, &w3));
        qunsetenv("FABSCOPE_THREADS");
        QCOMPARE(rows3, std::int64_t{300'000});
        QCOMPARE(rows3, rows1);
        QCOMPARE(one.size(), std::size_t{201});  // 100 ports x 2 counters, and the vendor one
        QCOMPARE(three, one);
        // What the file says, not only the same on both: port 1's xmit_bytes, every 10 s.
        std::string port1 = one.front().substr(0, one.front().find(' ')) + " leaf07/1/xmit_bytes:";
        for (std::int64_t k = 0; k < 1500; ++k)
            port1 += " " + std::to_string((1700000000 + k * 10) * 1000) + "=" + std::to_string(static_cast<double>(k * 200 * 1000 + 1));
        QCOMPARE(one.front(), port1);
        QCOMPARE(w3.size(), std::size_t{1});
        QCOMPARE(w3.front().line, std::int64_t{150'123 + 2});  // header + 0-based row
        QCOMPARE(w3.front().line, w1.front().line);

        // The later parts' series matched to the first part's by their order: also where each
        // time lists them in another order, and where a later part meets series the first did not.
        std::string shuffled = "timestamp,node,port,counter,value\n";
        for (std::int64_t r = 0; r < 300'000; ++r) {
            const std::int64_t t = r / 200, slot = (r % 200 + t * 7) % 200, port = slot / 2 + 1 + (t >= 1400 && slot < 10 ? 100 : 0);
            shuffled += std::to_string(1700000000 + t * 10) + ",leaf07," + std::to_string(port) + (slot % 2 ? ",rcv_bytes," : ",xmit_bytes,") +
                        std::to_string(r * 1000 + port) + "\n";
        }
        qputenv("FABSCOPE_THREADS", "1");
        const auto shuffledOne = contentOf(import(shuffled));
        qputenv("FABSCOPE_THREADS", "3");
        const auto shuffledThree = contentOf(import(shuffled));
        qunsetenv("FABSCOPE_THREADS");
        QCOMPARE(shuffledOne.size(), std::size_t{210});  // 100 ports x 2, and 5 more ports from t = 1400
        QCOMPARE(shuffledThree, shuffledOne);
    }

    // The encoder thread starts on the samples while the series' rows are inserted: a store that
    // refuses those rows fails the import with its error, the encoder stopped, nothing written.
    void refusedSeriesRowsStopTheEncoder() {
        const std::string path = dir_.filePath(QStringLiteral("refused.sqlite")).toStdString();
        Store store(path);
        {
            Store::Transaction tx(store);
            Fabric f;
            f.nodes.push_back({NodeType::Switch, "0x1c34da0300728866", "leaf07", "", 40, 3});
            store.writeSnapshot(f, "t", 0);
            tx.commit();
        }
        QCOMPARE(sqlite3_exec(store.handle(), "CREATE TRIGGER refuse BEFORE INSERT ON series WHEN NEW.port = '77' "
                                              "BEGIN SELECT RAISE(ABORT, 'series refused'); END",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        // 10,000 series (157 blocks of the encoder), 30 times each.
        std::string text = "timestamp,node,port,counter,value\n";
        for (int t = 0; t < 30; ++t)
            for (int port = 1; port <= 5000; ++port)
                for (const char* counter : {"xmit_bytes", "rcv_bytes"})
                    text += std::to_string(1700000000 + t * 10) + ",leaf07," + std::to_string(port) + "," + counter + "," + std::to_string(t * 1000) + "\n";
        qputenv("FABSCOPE_THREADS", "3");
        {
            Store::Transaction tx(store);
            SampleWriter writer(store);
            DiagnosticSink diag("counters.csv");
            bool refused = false;
            try {
                LongCsvImporter().parse(ImportInput{"counters.csv", text, 0}, writer, diag, {});
                writer.flush();
            } catch (const StoreError& e) {
                refused = std::string_view(e.what()).find("series refused") != std::string_view::npos;
            }
            QVERIFY(refused);
        }  // rolled back
        qunsetenv("FABSCOPE_THREADS");
        QVERIFY(store.series().empty());
        QCOMPARE(store.info().samples, std::int64_t{0});
    }

    void firstErrorInTheFileWinsAcrossParts() {
        qputenv("FABSCOPE_THREADS", "3");
        expectError(bigCsv(300'000, 160'000, 290'000), 160'000 + 2, "bad timestamp");
        expectError(bigCsv(300'000, 290'000), 290'000 + 2, "bad timestamp");
        qunsetenv("FABSCOPE_THREADS");
    }

    // The runner holds the file's hash while the parse takes every core (ImportInput::parsed
    // lets it go): the first part done frees a core, so the hash runs while the others still
    // parse. Part 0, the one reporting progress, waits in its progress until then; once a call.
    void firstPartDoneLetsTheHashRunOnce() {
        const std::string text = bigCsv(300'000);
        for (const char* threads : {"3", "1"}) {
            qputenv("FABSCOPE_THREADS", threads);
            const std::string path = dir_.filePath(QStringLiteral("freed%1.sqlite").arg(threads)).toStdString();
            Store store(path);
            Store::Transaction tx(store);
            SampleWriter writer(store);
            DiagnosticSink diag("counters.csv");
            std::mutex m;
            std::condition_variable freed;
            int calls = 0;
            bool asked = false, freedWhileParsing = false;
            ImportInput in{"counters.csv", text, 0};
            in.parsed = [&] {
                std::lock_guard lock(m);
                ++calls;
                freed.notify_all();
            };
            const bool wait = std::string_view(threads) != "1";  // one part: nothing else to free a core
            const ProgressFn progress = [&](double) {
                std::unique_lock lock(m);
                if (wait && !asked) freedWhileParsing = freed.wait_for(lock, std::chrono::seconds(20), [&] { return calls > 0; });
                asked = true;
                return true;
            };
            QCOMPARE(LongCsvImporter().parse(in, writer, diag, progress), std::int64_t{300'000});
            QCOMPARE(calls, 1);
            QCOMPARE(freedWhileParsing, wait);
        }
        qunsetenv("FABSCOPE_THREADS");
    }

    // The row scan and the timestamp shortcut against the forms a collector writes: fractions of
    // one to four digits, CRLF, comments, a quoted row and an alias of the same series (all
    // stored as one series, in time order, the repeated time kept once).
    void rowFormsGiveTheSameSamples() {
        std::int64_t rows = 0;
        const auto path = import("timestamp,node,port,counter,value\r\n"
                                 "1700000000.1,leaf07,1,xmit_bytes,10\r\n"
                                 "# a comment, with, four, commas\n"
                                 "1700000000.25,leaf07,1,xmit_bytes,20\n"
                                 "\n"
                                 "1700000000.125,\"leaf07\",1,xmit_bytes,30\n"
                                 "1700000000.0626,leaf07,1,xmit_bytes,40\n"
                                 "1700000001,leaf07,1,PortXmitData,15\n"
                                 " 1700000002.5,leaf07,1,xmit_bytes,70\n"
                                 "1700000001.,leaf07,1,xmit_bytes,60\n"
                                 "1700000000.250,leaf07,1,xmit_bytes,25",
                                 &rows);
        QCOMPARE(rows, std::int64_t{8});
        Store s(path, Store::Mode::ReadOnly);
        QCOMPARE(s.series().size(), std::size_t{1});
        const auto data = s.loadSeries(s.series().front().id);
        QCOMPARE(data.timesMs, (std::vector<std::int64_t>{1700000000063LL, 1700000000100LL, 1700000000125LL, 1700000000250LL,
                                                          1700000001000LL, 1700000002500LL}));
        QCOMPARE(data.values, (std::vector<double>{40, 10, 30, 25, 60, 70}));
        expectError("1700000000,leaf07,1,xmit_bytes,1\r\n1700000001.5.5,leaf07,1,xmit_bytes,2\r\n", 2, "bad timestamp");
        expectError("1700000000,leaf07,1,xmit_bytes,1\r\n1700000001,leaf07,1,xmit_bytes,12abc\r\n", 2, "bad value '12abc'");  // the CR is not the field's
        expectError("1700000000,leaf07,1,xmit_bytes,1\n100000000000.5,leaf07,1,xmit_bytes,2\n", 2, "looks like milliseconds");
    }

    // Once a dump's series repeat in order, rows are read by a shortcut that expects the next
    // series' key: every row it must not take (or must take as a row of that series) has to give
    // what the full row check gives, errors on their lines included.
    void repeatingRowsReadAsTheFullCheckReadsThem() {
        const std::string rounds = "timestamp,node,port,counter,value\n"
                                   "1700000000,leaf07,1,xmit_bytes,10\n1700000000,leaf07,1,rcv_bytes,11\n"
                                   "1700000010,leaf07,1,xmit_bytes,20\n1700000010,leaf07,1,rcv_bytes,21\n";
        const auto path = import(rounds +
                                 "1700000020.5,leaf07,1,xmit_bytes,30.5\n"          // a fraction: not an integer
                                 "1700000020.5,leaf07,1,rcv_bytes ,31\n"            // a space: same series
                                 "1700000030,leaf07,1,xmit_bytes,123456789012345678\n"  // beyond 15 digits
                                 "1700000030,leaf07,1,rcv_bytes,41\r\n"
                                 "1700000040.0001,leaf07,1,xmit_bytes,50\n"
                                 "1700000040,leaf07,1,rcv_bytes,51");
        Store s(path, Store::Mode::ReadOnly);
        QCOMPARE(s.series().size(), std::size_t{2});
        for (const auto& x : s.series()) {
            const auto data = s.loadSeries(x.id);
            QCOMPARE(data.timesMs, (std::vector<std::int64_t>{1700000000000LL, 1700000010000LL, 1700000020500LL, 1700000030000LL,
                                                              1700000040000LL}));
            if (x.counter == "xmit_bytes")
                QCOMPARE(data.values, (std::vector<double>{10, 20, 30.5, 123456789012345678.0, 50}));
            else
                QCOMPARE(data.values, (std::vector<double>{11, 21, 31, 41, 51}));
        }
        expectError(rounds + "1700000020,leaf07,1,xmit_bytes,30,7\n", 6, "expected 5 fields");
        expectError(rounds + "1700000020000,leaf07,1,xmit_bytes,30\n", 6, "looks like milliseconds");
        expectError(rounds + "1700000020,leaf07,1,xmit_bytes,-30\n", 6, "negative");
        expectError(rounds + "1700000020,leaf07,1,xmit_bytes,\n", 6, "bad value");
        // A series first named in quotes repeats; a plain row spelling its key with the unit
        // separator the quoted key is stored with is still a row of three fields.
        const std::string quoted = "1700000000,\"leaf07\",2,xmit_bytes,1\n1700000010,\"leaf07\",2,xmit_bytes,2\n";
        expectError(quoted + "1700000020,leaf07\x1f" "2\x1fxmit_bytes,3\n", 3, "expected 5 fields");
    }

    // The repeating row is read eight bytes at a time: values of every length around a word (7-9
    // digits, 15, and 16-17 which only the general path reads), the second row of a time in the
    // same spelling as the first or another, and a last row too short for a word, all read as
    // written.
    void valuesOfEveryLengthAndRespelledTimesReadExactly() {
        const std::vector<std::string> values{"7", "42", "1234567", "12345678", "123456789", "100000000000",
                                              "123456789012345", "1234567890123456", "98765432109876543", "0", "31"};
        const std::vector<double> asWritten{7, 42, 1234567, 12345678, 123456789, 100000000000, 123456789012345,
                                            1234567890123456, 98765432109876543.0, 0, 31};
        struct Time {
            std::string xmit, rcv;  // how each row of the time spells it
            std::int64_t ms;
        };
        const std::vector<Time> times{{"1700000000", "1700000000", 1700000000000},         {"1700000010", "1700000010.000", 1700000010000},
                                      {"1700000020.1", "1700000020.10", 1700000020100},   {"1700000030", "1700000030", 1700000030000},
                                      {"1700000040.25", "1700000040.250", 1700000040250}, {"1700000050", "1700000050.0", 1700000050000},
                                      {"1700000060", "1700000060", 1700000060000},         {"1700000070.5", "1700000070.5", 1700000070500},
                                      {"1700000080", "1700000080.00", 1700000080000},      {"1700000090", "1700000090", 1700000090000},
                                      {"1700000100", "1700000100", 1700000100000}};
        std::string text = "timestamp,node,port,counter,value\n";
        for (std::size_t k = 0; k < values.size(); ++k) {
            text += times[k].xmit + ",leaf07,1,xmit_bytes," + values[k] + "\n";
            text += times[k].rcv + ",leaf07,1,rcv_bytes," + values[values.size() - 1 - k] + (k + 1 < values.size() ? "\n" : "");
        }
        std::vector<std::int64_t> ms;
        for (const Time& t : times) ms.push_back(t.ms);
        const auto path = import(text);
        Store s(path, Store::Mode::ReadOnly);
        QCOMPARE(s.series().size(), std::size_t{2});
        for (const auto& x : s.series()) {
            const auto data = s.loadSeries(x.id);
            std::vector<double> want = asWritten;
            if (x.counter == "rcv_bytes") std::reverse(want.begin(), want.end());
            QCOMPARE(data.timesMs, ms);
            QCOMPARE(data.values, want);
        }
    }

    // A part keeps its samples in 8 bytes while they fit (an index into its table of times, an
    // integer below 2^48) and in 16 from the first one that does not: the store gets what the
    // file says either way, and parts that kept theirs differently merge as one pass reads them.
    void samplesReadExactlyPackedOrWide() {
        // At the packed value's limit, read on the repeating row's path and (a CR ends the line)
        // on the general one.
        for (const std::string eol : {"\n", "\r\n"}) {
            const auto limit = import("timestamp,node,port,counter,value\n"
                                      "1700000000,leaf07,1,xmit_bytes,1\n1700000000,leaf07,2,xmit_bytes,2\n"
                                      "1700000010,leaf07,1,xmit_bytes,3\n1700000010,leaf07,2,xmit_bytes,4\n"
                                      "1700000020,leaf07,1,xmit_bytes,281474976710655" + eol +  // 2^48 - 1: packed
                                      "1700000020,leaf07,2,xmit_bytes,5\n"
                                      "1700000030,leaf07,1,xmit_bytes,281474976710656" + eol +  // 2^48: the part widens
                                      "1700000030,leaf07,2,xmit_bytes,6\n");
            Store s(limit, Store::Mode::ReadOnly);
            for (const auto& x : s.series()) {
                const auto data = s.loadSeries(x.id);
                QCOMPARE(data.timesMs, (std::vector<std::int64_t>{1700000000000LL, 1700000010000LL, 1700000020000LL, 1700000030000LL}));
                QCOMPARE(data.values, x.port == "1" ? (std::vector<double>{1, 3, 281474976710655.0, 281474976710656.0})
                                                    : (std::vector<double>{2, 4, 5, 6}));
            }
        }
        // Series by series, the same times again for each (the third backwards), then a series of
        // more distinct times than the index holds (65,536).
        auto valueAt = [](int port, std::int64_t k) { return std::int64_t{1'000'003} * k + port; };
        std::string text = "timestamp,node,port,counter,value\n";
        std::vector<std::vector<std::int64_t>> times(4);
        for (int port = 1; port <= 4; ++port) {
            const std::int64_t n = port == 4 ? 70'000 : 1'000;
            for (std::int64_t i = 0; i < n; ++i) {
                const std::int64_t k = port == 3 ? n - 1 - i : i;
                text += std::to_string(1700000000 + k) + ",leaf07," + std::to_string(port) + ",xmit_bytes," + std::to_string(valueAt(port, k)) + "\n";
                times[static_cast<std::size_t>(port - 1)].push_back((1700000000 + k) * 1000);
            }
        }
        Store t(import(text), Store::Mode::ReadOnly);
        QCOMPARE(t.series().size(), std::size_t{4});
        for (const auto& x : t.series()) {
            const int port = std::stoi(x.port);
            auto want = times[static_cast<std::size_t>(port - 1)];
            std::sort(want.begin(), want.end());
            const auto data = t.loadSeries(x.id);
            QCOMPARE(data.timesMs, want);
            for (std::size_t i = 0; i < want.size(); ++i)
                QCOMPARE(data.values[i], static_cast<double>(valueAt(port, want[i] / 1000 - 1700000000)));
        }
        // The last of three parts widens at its last row; the others stay packed.
        const std::string parts = bigCsv(300'000) + "1700015000,leaf07,1,xmit_bytes,299000001.5\n";
        qputenv("FABSCOPE_THREADS", "1");
        const auto one = contentOf(import(parts));
        qputenv("FABSCOPE_THREADS", "3");
        const auto three = contentOf(import(parts));
        qunsetenv("FABSCOPE_THREADS");
        QCOMPARE(three, one);
        QVERIFY2(one.front().ends_with(" 1700014990000=299800001.000000 1700015000000=299000001.500000"), one.front().c_str());
    }

    // NUL bytes are looked for in slices on the worker threads: one in the last slice is found.
    void binaryDataIsRefusedWhereverItIs() {
        std::string text = "timestamp,node,port,counter,value\n";
        while (text.size() < (17u << 20)) text += "1700000000,leaf07,1,xmit_bytes,1\n";
        qputenv("FABSCOPE_THREADS", "2");
        for (const std::size_t at : {std::size_t{40}, text.size() / 2 + 3, text.size() - 5}) {
            std::string bad = text;
            bad[at] = '\0';
            expectError(bad, 0, "binary data");
        }
        qunsetenv("FABSCOPE_THREADS");
    }

    void detectsItsHeader() {
        QCOMPARE(LongCsvImporter().detect("timestamp,node,port,counter,value\r\n1,2,3,4,5"), 100);
        QCOMPARE(LongCsvImporter().detect("#\n# Topology file"), 0);
    }
};

QTEST_GUILESS_MAIN(TestLongCsv)
#include "tst_long_csv.moc"
