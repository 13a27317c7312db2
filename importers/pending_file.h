#pragma once
// One file of an import between its classification and its parse: its mapping, the text its
// importer reads, its hash (now or later) and the buffers kept until its commit.
#include "core/mapped_file.h"
#include "importers/importer.h"

#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fabscope {

// The head of a file its importer is found by (Importer::detect).
constexpr std::size_t kDetectBytes = 16384;

struct PendingFile {
    std::string path;
    std::unique_ptr<MappedFile> map;
    std::size_t size = 0;  // the file's bytes (its map may be gone)
    std::string_view text;  // the bytes importers read: the file without a UTF-8 byte-order mark
    std::unique_ptr<std::string> cleaned;  // a terminal capture's text without banners, escapes, mpirun tags
    bool nulFree = false;                  // the capture pass read all of `text` and met no NUL
    std::string sha;
    std::string nameKey;  // Importer::nameFromPath: with sha, what makes this import another
    // A large file's SHA-256, computed on its own thread while the file is parsed (it took a fifth
    // of a 490 MB import when it ran first); checked against the store before the file is recorded.
    std::shared_future<std::string> shaLater;
    // Ready once that hash's thread has made its first allocations: the populate waits for it,
    // as a thread's first malloc maps an arena, which waits for the whole populate call (the
    // hash then started 10-15 ms late, and the commit waited for it as long, in half the runs).
    std::shared_future<void> hashStarted;
    // Gives that hash up when the file is dropped unparsed (unrecognised, UTF-16, cancelled):
    // declared after shaLater, so it is told before shaLater waits for it.
    struct AbandonHash {
        std::shared_ptr<std::atomic<bool>> flag = std::make_shared<std::atomic<bool>>(false);
        AbandonHash() = default;
        AbandonHash(AbandonHash&&) noexcept = default;
        AbandonHash& operator=(AbandonHash&&) noexcept = default;
        AbandonHash(const AbandonHash&) = delete;
        AbandonHash& operator=(const AbandonHash&) = delete;
        ~AbandonHash() {
            if (flag) flag->store(true);
        }
    } abandonHash;
    const Importer* importer = nullptr;
    std::vector<std::shared_ptr<void>> kept;  // the importer's buffers (ImportInput::keepUntilCommitted)

    // The file's pages mapped and its terminal-capture pass (cleanTerminalCapture), where
    // classification named its format from its head alone and left them for later: on a thread
    // of their own (capturePassBeside) while the topology of the same import is written, or here
    // (ready). Before them, `text` is the file's raw bytes and `nulFree` false.
    bool capturePassLeft = false;
    void capturePassBeside();
    void ready();  // before the first read of `text` past its head

    // A large file's pages and buffers let go on another thread once it is parsed and hashed,
    // beside its commit's fsync (unmapping 100 MB took ~3.5 ms, freeing its samples ~4 ms); its
    // text is gone then.
    std::future<void> released;
    void releaseBeside();

private:
    struct CapturePass {
        std::unique_ptr<std::string> cleaned;
        bool nulFree = false;
    };
    static CapturePass capturePass(const MappedFile& map, std::string_view text, bool beside);
    // Declared after map and text: a pass still running is waited for before they go.
    std::future<CapturePass> capturePassLater_;
};

} // namespace fabscope
