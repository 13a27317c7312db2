// The hand-over of encoded blocks from an import's encoder thread to the thread inserting them:
// every block arrives once, in order, whichever thread encoded it; an encoder's failure reaches
// the inserting thread; a stopped import releases an encoder waiting for room.
#include "core/store/encoded_blocks.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

using namespace fabscope;

namespace {

EncodedBlock marked(std::size_t index, std::size_t bytes = 0) {
    EncodedBlock b;
    b.blobs = std::to_string(index);
    b.blobs.resize(std::max(bytes, b.blobs.size()), ' ');
    return b;
}

std::size_t markOf(const EncodedBlock& b) { return std::stoul(b.blobs); }

} // namespace

class TestEncodedBlocks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Blocks 0-49 before the encoder starts are the inserting thread's own; from then on each
    // block comes from whichever thread claimed it first, and every one in order.
    void everyBlockOnceInOrderWhoeverEncodes() {
        constexpr std::size_t kBlocks = 2000;
        OrderedBlocks blocks(kBlocks);
        std::atomic<bool> go{false};
        std::atomic<std::size_t> byEncoder{0};
        std::jthread encoder([&] {
            while (!go) std::this_thread::yield();
            while (const auto i = blocks.claim()) {
                blocks.put(*i, marked(*i));
                ++byEncoder;
            }
        });
        std::size_t own = 0;
        for (std::size_t i = 0; i < kBlocks; ++i) {
            if (i == 50) {
                go = true;
                while (byEncoder == 0) std::this_thread::yield();  // it has claimed one at least
            }
            const bool mine = blocks.claimOwn(i);
            if (i < 50) QVERIFY(mine);
            own += mine ? 1 : 0;
            const EncodedBlock b = mine ? marked(i) : blocks.take(i);
            QCOMPARE(markOf(b), i);
        }
        encoder.join();
        QCOMPARE(own + byEncoder, kBlocks);
        QVERIFY(byEncoder > 0);
        QVERIFY(own >= 50);
    }

    void encoderFailureReachesTheInsertingThread() {
        OrderedBlocks blocks(10);
        std::jthread encoder([&] {
            const auto first = blocks.claim();
            blocks.put(*first, marked(*first));
            (void)blocks.claim();  // block 1: it fails on it
            blocks.fail(std::make_exception_ptr(std::runtime_error("out of memory while encoding")));
        });
        encoder.join();
        QCOMPARE(markOf(blocks.take(0)), std::size_t{0});
        QVERIFY(!blocks.claimOwn(1));  // claimed by the encoder, which failed
        try {
            (void)blocks.take(1);
            QFAIL("expected the encoder's error");
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()), std::string("out of memory while encoding"));
        }
    }

    // An encoder holding 64 MiB of blocks nobody took waits for room; a stopped import (a
    // Cancel, a failed insert) lets it go without a block.
    void stopReleasesAnEncoderWaitingForRoom() {
        OrderedBlocks blocks(10);
        std::atomic<bool> released{false};
        std::optional<std::size_t> second;
        std::jthread encoder([&] {
            const auto first = blocks.claim();
            blocks.put(*first, marked(*first, std::size_t{64} << 20));
            second = blocks.claim();  // waits: 64 MiB held
            released = true;
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QVERIFY(!released);
        blocks.stop();
        encoder.join();
        QVERIFY(released);
        QVERIFY(!second.has_value());
    }
};

QTEST_GUILESS_MAIN(TestEncodedBlocks)
#include "tst_encoded_blocks.moc"
