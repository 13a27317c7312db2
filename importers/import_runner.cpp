#include "importers/import_runner.h"

#include "core/analysis/format.h"

#include "core/fabric_builder.h"
#include "core/mapped_file.h"
#include "core/sha256.h"
#include "core/store/early_writeback.h"
#include "core/worker_threads.h"
#include "importers/core_gate.h"
#include "importers/ibdiagnet_folder.h"
#include "importers/import_inputs.h"
#include "importers/nccl_log_and_tests.h"
#include "importers/pending_file.h"
#include "importers/terminal_capture.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <future>
#include <memory>
#include <set>
#include <tuple>

namespace fabscope {
namespace fs = std::filesystem;

bool ImportSummary::anyFailed() const { return count(FileStatus::Failed) > 0; }
std::size_t ImportSummary::count(FileStatus s) const {
    return static_cast<std::size_t>(std::count_if(files.begin(), files.end(), [s](const auto& f) { return f.status == s; }));
}

namespace {

struct HashAbandoned {};

// Files from this size on are hashed alongside their parse, unless the store already holds an
// import of the same file name (the usual way a file comes twice): those are hashed first, so a
// repeat is skipped before any parsing.
constexpr std::size_t kHashAlongsideBytes = std::size_t{16} << 20;

// Thrown when a file hashed alongside its parse turns out to be stored already: its transaction
// rolls back and the file is reported as already imported.
struct AlreadyStored {
    std::string priorFile;
};

// UTF-16 (a byte-order mark, or ASCII with every other byte NUL) comes from Windows tools and
// PowerShell redirection; importers read UTF-8, so it is named instead of misparsed.
bool looksUtf16(std::string_view b) {
    if (b.size() >= 2 && ((b[0] == '\xFF' && b[1] == '\xFE') || (b[0] == '\xFE' && b[1] == '\xFF'))) return true;
    return b.size() >= 8 && b[1] == '\0' && b[3] == '\0' && b[5] == '\0' && b[7] == '\0' && b[0] != '\0';
}

// An importer that gives up on the whole file ("no port block found", binary data) says line 0;
// the user still gets a FILE:LINE: the first NUL byte when there is one, else the last line,
// where the importer reached the end without finding what it needs.
Diagnostic located(const ImportError& e, std::string_view text) {
    Diagnostic d = e.diagnostic();
    if (d.line > 0) return d;
    const auto nul = text.find('\0');
    const auto upTo = text.substr(0, nul == std::string_view::npos ? text.size() : nul);
    d.line = 1 + static_cast<std::int64_t>(std::count(upTo.begin(), upTo.end(), '\n'));
    if (nul == std::string_view::npos && !upTo.empty() && upTo.back() == '\n') --d.line;
    return d;
}

std::string_view withoutUtf8Bom(std::string_view b) { return b.substr(0, 3) == "\xEF\xBB\xBF" ? b.substr(3) : b; }

std::string defaultLabel(const std::vector<std::string>& args, const std::string& firstTopologyFile) {
    if (args.size() == 1 && fs::is_directory(args.front())) {
        auto path = fs::path(args.front());
        if (!path.has_filename()) path = path.parent_path();
        return path.filename().string();
    }
    // An ibdiagnet run's file is named by its run: the folder it sits in.
    const fs::path file(firstTopologyFile);
    if (file.filename().string().starts_with("ibdiagnet2.") && file.has_parent_path() && !file.parent_path().filename().empty())
        return file.parent_path().filename().string();
    return file.filename().string();
}

// One run() call: its files by kind, the progress over all their bytes, and the summary.
class ImportSession {
public:
    ImportSession(Store& store, const ImporterRegistry& registry, const ImportOptions& options, const ProgressFn& progress)
        : store_(store), registry_(registry), options_(options), progress_(progress) {}

    ImportSummary run(const std::vector<std::string>& paths) {
        importAll(paths);
        if (summary_.cancelled) nameTheUnfinished();
        settleTwins();
        return std::move(summary_);
    }

private:
    void importAll(const std::vector<std::string>& paths) {
        if (!options_.format.empty()) {
            forced_ = registry_.byName(options_.format);
            if (!forced_) throw std::invalid_argument("unknown format '" + options_.format + "'");
        }
        classify(paths);
        passOverFirstBesideTopology();
        // What is already stored helps name ports (CA port GUID -> node GUID, LID -> node).
        refreshIndex();
        if (!importTopology(paths) ||
            !importEach(plans_, [this](const PendingFile& pf, const ImportInput& in, DiagnosticSink& diag) { return writePlanFile(pf, in, diag); }))
            return;
        if (!counters_.empty() && topologyWritten_) refreshIndex();  // counters map onto the new snapshot
        if (importEach(counters_, [this](PendingFile& pf, const ImportInput& in, DiagnosticSink& diag) {
                return writeCounters(pf, in, diag);
            }) &&
            importEach(jobs_, [this](const PendingFile& pf, const ImportInput& in, DiagnosticSink& diag) { return writeJobFile(pf, in, diag); }))
            importEach(probes_, [this](const PendingFile& pf, const ImportInput& in, DiagnosticSink& diag) { return writeProbeFile(pf, in, diag); });
    }

    // Files with the content of an earlier file of this call: stored now, they were imported as
    // that file (or an earlier copy); else it failed, and each is tried alone, in order (an
    // importer may take the host from the file's name), unless the import was cancelled.
    void settleTwins() {
        for (const auto& [path, sha, nameKey] : twins_) {
            if (const auto prior = store_.findImport(sha, nameKey)) {
                alreadyImported(path, prior->format, prior->file);
            } else if (summary_.cancelled) {
                cancelled(path);
            } else {
                ImportSummary alone = ImportSession(store_, registry_, options_, progress_).run({path});
                summary_.files.insert(summary_.files.end(), alone.files.begin(), alone.files.end());
                summary_.diagnostics.insert(summary_.diagnostics.end(), alone.diagnostics.begin(), alone.diagnostics.end());
                summary_.cancelled = alone.cancelled;
            }
        }
    }

    // After a Cancel: each file of the call that has no outcome yet (the one being read or written,
    // the topology files of the snapshot not written, those not reached) is named, so the user
    // knows which to import again.
    void nameTheUnfinished() {
        std::set<std::string> settled;
        for (const FileOutcome& f : summary_.files) settled.insert(f.file);
        for (const auto* files : {&topo_, &plans_, &counters_, &jobs_, &probes_})
            for (const PendingFile& pf : *files)
                if (settled.insert(pf.path).second) cancelled(pf.path);
    }
    void cancelled(const std::string& path) {
        summary_.files.push_back({path, FileStatus::Cancelled, "", 0});
        summary_.diagnostics.push_back({path, 0, Severity::Info, "not imported: the import was cancelled"});
    }

    // The index is built when a file's importer first asks for it, after each new snapshot.
    void refreshIndex() {
        index_.reset();
        indexBuilt_ = false;
    }
    const FabricIndex* indexFor(const Importer& importer) {
        if (!importer.usesFabricIndex()) return nullptr;
        if (!indexBuilt_) {
            if (const auto latest = store_.latestSnapshot()) index_ = FabricIndex::from(store_.loadFabric(latest->id));
            indexBuilt_ = true;
        }
        return index_ ? &*index_ : nullptr;
    }
    void fail(const std::string& path, std::int64_t line, std::string message, std::string format = {}) {
        summary_.files.push_back({path, FileStatus::Failed, std::move(format), 0});
        summary_.diagnostics.push_back({path, line, Severity::Error, std::move(message)});
    }
    // A file's progress (0..1, or its share from..to) as a share of all files' bytes; NaN (a
    // writer with no news) asks only whether to go on, and shows what was last shown.
    ProgressFn progressFor(std::size_t size, double from = 0, double to = 1) const {
        if (!progress_) return {};
        return [this, size, from, to](double f) {
            if (std::isnan(f)) return progress_(shown_);
            const double done = static_cast<double>(doneBytes_) + (from + f * (to - from)) * static_cast<double>(size);
            shown_ = totalBytes_ ? done / static_cast<double>(totalBytes_) : 1.0;
            return progress_(shown_);
        };
    }
    // The capture pass of the first file parsed after the topology, where classify left it, runs
    // beside the topology's import on the core that import leaves (mapping and reading the
    // judged 104 MB CSV took ~12-18 ms before that import began). Not without a topology to
    // import: the parse would only wait for it, on one core instead of all.
    void passOverFirstBesideTopology() {
        if (topo_.empty()) return;
        for (auto* files : {&counters_, &jobs_, &probes_})
            if (!files->empty()) {
                files->front().capturePassBeside();
                return;
            }
    }
    ImportInput inputOf(PendingFile& pf) {
        if (options_.onFile) {
            const std::size_t count = topo_.size() + plans_.size() + counters_.size() + jobs_.size() + probes_.size();
            options_.onFile(++filesStarted_, count, pf.path);
        }
        pf.ready();
        std::function<void()> parsed;
        if (pf.importer->parsesOnAllCores()) parsed = [cores = cores_] { cores->open(); };
        return {pf.path, pf.text, pf.map->mtime(), indexFor(*pf.importer), std::move(parsed), pf.nulFree,
                [&kept = pf.kept](std::shared_ptr<void> buffers) { kept.push_back(std::move(buffers)); }};
    }

    void alreadyImported(const std::string& path, const std::string& priorFormat, const std::string& priorFile) {
        summary_.files.push_back({path, FileStatus::AlreadyImported, priorFormat, 0});
        summary_.diagnostics.push_back(
            {path, 0, Severity::Info, "already imported" + (priorFile.empty() ? std::string() : " as " + priorFile) + " (same SHA-256): nothing to do"});
    }
    // True when this content is stored under the names this path gives (each earlier import's
    // format says which names a path gives: Importer::nameFromPath).
    bool stored(const std::string& sha, const std::string& path, std::string_view text) {
        for (const ImportRecord& prior : store_.findImports(sha)) {
            const Importer* importer = registry_.byName(prior.format);
            if (prior.nameKey && (importer ? importer->nameFromPath(path, text) : std::string()) != *prior.nameKey) continue;
            alreadyImported(path, prior.format, prior.file);
            return true;
        }
        return false;
    }
    // True when a file of this content and these names was met earlier in this call (settled at the end).
    bool twinOfEarlier(const PendingFile& pf) {
        if (seen_.insert({pf.sha, pf.nameKey}).second) return false;
        twins_.push_back({pf.path, pf.sha, pf.nameKey});
        return true;
    }
    // A file hashed alongside its parse: its hash is waited for here, before it is recorded.
    // Throws AlreadyStored (rolling back what the file wrote) when the content is known.
    std::string shaOf(const PendingFile& pf) {
        const std::string sha = pf.shaLater.valid() ? pf.shaLater.get() : pf.sha;
        // Also for a file hashed first: a file hashed alongside may have stored its content since.
        // (An earlier twin that failed stored nothing: this one's rows are kept.)
        if (auto prior = store_.findImport(sha, pf.nameKey)) throw AlreadyStored{prior->file};
        return sha;
    }

    // Phase 1: open, hash and classify every file; skip what is not needed or already stored.
    void classify(const std::vector<std::string>& paths) {
        const auto inputs = importInputs(paths, store_.path(), summary_);
        std::set<std::string> storedNames;  // file names of earlier imports
        for (const auto& r : store_.imports()) storedNames.insert(fs::path(r.file).filename().string());
        std::set<fs::path> dbCsvDirs;  // folders whose ibdiagnet2.db_csv is in this import
        for (const auto& path : inputs)
            if (fs::path(path).filename() == "ibdiagnet2.db_csv") dbCsvDirs.insert(fs::path(path).parent_path());
        for (const auto& path : inputs) {
            if (const auto role = ibdiagnetFileRole(fs::path(path).filename().string())) {
                using Use = IbdiagnetFileRole::Use;
                const bool covered = role->use == Use::SameAsDbCsv && dbCsvDirs.count(fs::path(path).parent_path());
                if (role->use == Use::NotUsed || covered) {
                    summary_.files.push_back({path, FileStatus::Skipped, "", 0});
                    summary_.diagnostics.push_back(
                        {path, 0, Severity::Info,
                         std::string(role->what) + (covered ? ": read from ibdiagnet2.db_csv of the same run" : "") + ": skipped"});
                    continue;
                }
            }
            PendingFile pf;
            pf.path = path;
            try {
                pf.map = std::make_unique<MappedFile>(path, MappedFile::Populate::Later);
            } catch (const std::exception& e) {
                fail(path, 0, e.what());
                continue;
            }
            const auto bytes = pf.map->bytes();
            pf.size = bytes.size();
            if (bytes.empty() && !forced_) {  // one content for every empty file: no copy of another
                fail(path, 1, "empty file");
                continue;
            }
            const bool hashAlongside = bytes.size() >= kHashAlongsideBytes && !storedNames.count(fs::path(path).filename().string());
            if (hashAlongside) {
                // Started before the pages are mapped, at the lowest priority: it reads behind the
                // populate (PendingFile::ready) on a core that would idle, and is held while a
                // parse takes every core (cores_).
                auto started = std::make_shared<std::promise<void>>();
                pf.hashStarted = started->get_future().share();
                pf.shaLater = std::async(std::launch::async, [bytes, cores = cores_, abandon = pf.abandonHash.flag, started]() mutable {
                                  runAtLowestPriority();
                                  return sha256Hex(bytes, [&cores, &abandon, &started] {
                                      if (started) {  // its state allocated: PendingFile::hashStarted
                                          started->set_value();
                                          started.reset();
                                      }
                                      if (abandon->load()) throw HashAbandoned{};
                                      cores->waitOpen();
                                  });
                              }).share();
            }
            if (!hashAlongside) {
                pf.map->populate();
                pf.sha = sha256Hex(bytes);
                if (stored(pf.sha, path, withoutUtf8Bom(bytes))) continue;
            }
            if (looksUtf16(bytes)) {
                fail(path, 1, "UTF-16 text: convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)");
                continue;
            }
            pf.text = withoutUtf8Bom(bytes);
            // A large file whose head the capture pass would leave as it is is named from its head,
            // and mapped and passed over later, beside the topology's import (run) or before its parse.
            pf.capturePassLeft = true;
            if (!hashAlongside || !headIsClean(pf.text, kDetectBytes)) pf.ready();  // now
            pf.importer = forced_ ? forced_ : registry_.detect(pf.text.substr(0, kDetectBytes));
            if (!pf.importer) {
                fail(path, 1, bytes.empty() ? "empty file" : "unrecognised format: name one (fabscope import --format, or Format in the GUI's File > Import files…)");
                continue;
            }
            pf.nameKey = pf.importer->nameFromPath(path, pf.text);
            // Only counter files are parsed before they are recorded; the others are checked here.
            if (hashAlongside && pf.importer->kind() != Importer::Kind::Counters) {
                pf.sha = pf.shaLater.get();
                pf.shaLater = {};
                if (stored(pf.sha, path, pf.text)) continue;
            }
            if (!pf.sha.empty() && twinOfEarlier(pf)) continue;
            totalBytes_ += bytes.size();
            switch (pf.importer->kind()) {
            case Importer::Kind::Topology: (pf.importer->asTopology()->describesPlan() ? plans_ : topo_).push_back(std::move(pf)); break;
            case Importer::Kind::Counters: counters_.push_back(std::move(pf)); break;
            case Importer::Kind::Job: jobs_.push_back(std::move(pf)); break;
            case Importer::Kind::Probes: probes_.push_back(std::move(pf)); break;
            }
        }
    }

    // Phase 2: the topology files of this call form one snapshot, written in one transaction.
    // Returns false when cancelled.
    bool importTopology(const std::vector<std::string>& paths) {
        FabricBuilder builder;
        std::vector<PortHint> hints;
        std::vector<SwitchRoutes> routes;
        std::vector<PortOptics> optics;
        std::vector<PortBer> ber;
        std::vector<FabricEvent> events;
        std::string routesFrom, opticsFrom, berFrom, eventsFrom;  // the file a dropped-rows warning names
        std::optional<double> opticsTime, berTime;                 // when ibdiagnet read the modules, the PHY
        std::vector<TopologyResult::CounterSample> samples;  // PM counters of db_csv files
        std::vector<std::pair<const PendingFile*, std::int64_t>> parsed;
        std::optional<double> fileTime;  // the first file's with nodes (a db_csv, not the .cables beside it), else the first's
        bool timeOfNodes = false;
        std::string nodesFile;  // names the snapshot: the first file with nodes
        for (auto& pf : topo_) {
            DiagnosticSink diag(pf.path);
            try {
                auto result = pf.importer->asTopology()->parse(inputOf(pf), diag, progressFor(pf.size));
                if (!fileTime || (!timeOfNodes && !result.fabric.nodes.empty())) {
                    fileTime = result.time ? *result.time : pf.map->mtime();
                    timeOfNodes = !result.fabric.nodes.empty();
                }
                if (nodesFile.empty() && !result.fabric.nodes.empty()) nodesFile = pf.path;
                builder.merge(result.fabric);
                hints.insert(hints.end(), result.hints.begin(), result.hints.end());
                routes.insert(routes.end(), result.routes.begin(), result.routes.end());
                samples.insert(samples.end(), result.samples.begin(), result.samples.end());
                optics.insert(optics.end(), result.optics.begin(), result.optics.end());
                ber.insert(ber.end(), result.ber.begin(), result.ber.end());
                events.insert(events.end(), result.events.begin(), result.events.end());
                if (!result.routes.empty()) routesFrom = pf.path;
                if (!result.optics.empty()) std::tie(opticsFrom, opticsTime) = std::pair(pf.path, result.time);
                if (!result.ber.empty()) std::tie(berFrom, berTime) = std::pair(pf.path, result.time);
                if (!result.events.empty()) eventsFrom = pf.path;
                auto rows = static_cast<std::int64_t>(result.fabric.nodes.size() + result.fabric.links.size() + result.samples.size() +
                                                      result.optics.size() + result.ber.size() + result.events.size());
                for (const auto& r : result.routes)
                    rows += std::count_if(r.egress.begin(), r.egress.end(), [](std::uint8_t p) { return p != SwitchRoutes::kNoRoute; });
                parsed.emplace_back(&pf, rows);
                summary_.diagnostics.insert(summary_.diagnostics.end(), diag.items().begin(), diag.items().end());
            } catch (const ImportError& e) {
                summary_.diagnostics.insert(summary_.diagnostics.end(), diag.items().begin(), diag.items().end());
                summary_.diagnostics.push_back(located(e, pf.text));
                summary_.files.push_back({pf.path, FileStatus::Failed, std::string(pf.importer->name()), 0});
            } catch (const ImportCancelled&) {
                summary_.cancelled = true;
                return false;
            }
            doneBytes_ += pf.size;
        }
        if (parsed.empty()) return true;
        const Fabric fabric = builder.take();
        std::int64_t sid = 0;
        double snapshotTime = 0;
        Store::Transaction tx(store_);
        if (!fabric.nodes.empty()) {
            const std::string label = options_.snapshotLabel.empty() ? defaultLabel(paths, nodesFile) : options_.snapshotLabel;
            snapshotTime = options_.snapshotTime.value_or(*fileTime);
            sid = store_.writeSnapshot(fabric, label, snapshotTime);
            store_.writePortHints(sid, hints);
        } else if (const auto latest = store_.latestSnapshot()) {
            sid = latest->id;  // forwarding tables, module readings and switch reports alone belong to the fabric already stored
            snapshotTime = latest->time;
        }
        if (sid == 0) {  // forwarding tables, module readings or switch reports with nothing to attach to: they fail, the store stays as it was
            const char* what = !optics.empty() ? "module readings" : !ber.empty() ? "bit error rates" : !events.empty() ? "switch reports"
                               : !routes.empty()                                                     ? "forwarding tables"
                                                                                                     : "port readings";
            for (const auto& [pf, rows] : parsed)
                fail(pf->path, 0, what + std::string(" need a topology: import ibnetdiscover output first"), std::string(pf->importer->name()));
            return true;
        }
        // Readings of another ibdiagnet run than the fabric's: a temperature or a flag may have changed since.
        for (const auto& [time, file, what] : {std::tuple(opticsTime, opticsFrom, "module readings"), std::tuple(berTime, berFrom, "bit error rates")}) {
            if (!time || file.empty() || std::abs(*time - snapshotTime) <= 3600) continue;
            const double apart = std::abs(*time - snapshotTime);
            summary_.diagnostics.push_back(
                {file, 0, Severity::Warning,
                 std::string(what) + " taken " + numfmt::utc(*time) + ", " +
                     (apart >= 2 * 86400 ? numfmt::num(apart / 86400, 3) + " days " : numfmt::num(apart / 3600, 3) + " hours ") +
                     (*time < snapshotTime ? "before" : "after") + " the topology snapshot they join (" + numfmt::utc(snapshotTime) + ")"});
        }
        // Rows naming what the snapshot does not hold are dropped, counted in one warning on their file.
        auto dropped = [this](const std::string& file, std::size_t written, std::size_t total, const char* what) {
            if (written < total)
                summary_.diagnostics.push_back({file, 0, Severity::Warning,
                                                std::to_string(total - written) + " of " + std::to_string(total) + what + ": dropped"});
        };
        dropped(routesFrom, store_.writeRoutes(sid, routes), routes.size(), " forwarding tables name switches not in the topology");
        dropped(opticsFrom, writePortOptics(store_, sid, optics), optics.size(), " module readings name ports not in the topology");
        dropped(berFrom, writePortBer(store_, sid, ber), ber.size(), " bit error rates name ports not in the topology");
        dropped(eventsFrom, writeFabricEvents(store_, sid, events), events.size(),
                " warnings and errors of ibdiagnet or ibswinfo name nodes not in the topology");
        if (!samples.empty()) {  // after the snapshot, so the writer maps GUIDs onto it
            SampleWriter writer(store_);
            for (const auto& c : samples) writer.add(writer.series(c.node, c.port, c.counter), c.timeMs, c.value);
            writer.flush();
        }
        for (const auto& [pf, rows] : parsed) store_.recordImport(pf->path, pf->sha, std::string(pf->importer->name()), rows, sid, pf->nameKey);
        tx.commit();
        topologyWritten_ = true;
        for (const auto& [pf, rows] : parsed) summary_.files.push_back({pf->path, FileStatus::Imported, std::string(pf->importer->name()), rows});
        return true;
    }

    // Phases 3-5 share one shape: parse and write one file in one transaction; an input error
    // fails that file alone, a cancel stops the whole run (returns false).
    template <typename ParseAndWrite>
    bool importEach(std::vector<PendingFile>& files, const ParseAndWrite& parseAndWrite) {
        for (auto& pf : files) {
            DiagnosticSink diag(pf.path);
            try {
                const std::int64_t rows = parseAndWrite(pf, inputOf(pf), diag);
                summary_.files.push_back({pf.path, FileStatus::Imported, std::string(pf.importer->name()), rows});
                summary_.diagnostics.insert(summary_.diagnostics.end(), diag.items().begin(), diag.items().end());
            } catch (const ImportError& e) {
                summary_.diagnostics.insert(summary_.diagnostics.end(), diag.items().begin(), diag.items().end());
                summary_.diagnostics.push_back(located(e, pf.text));
                summary_.files.push_back({pf.path, FileStatus::Failed, std::string(pf.importer->name()), 0});
            } catch (const AlreadyStored& a) {
                alreadyImported(pf.path, std::string(pf.importer->name()), a.priorFile);
            } catch (const ImportCancelled&) {
                summary_.cancelled = true;
                return false;
            }
            pf.kept.clear();  // however the file ended
            doneBytes_ += pf.size;
        }
        return true;
    }

    // 3. Counter files, mapped onto the topology stored so far.
    std::int64_t writeCounters(PendingFile& pf, const ImportInput& in, DiagnosticSink& diag) {
        // A parse on every core holds the hashes of large files until its threads are done (it
        // says so through ImportInput::parsed); however it ends, they may run after it.
        struct HoldHashes {
            CoreGate& cores;
            explicit HoldHashes(CoreGate& c, bool hold) : cores(c) {
                if (hold) cores.close();
            }
            ~HoldHashes() { cores.open(); }
        } hold(*cores_, pf.importer->parsesOnAllCores());
        Store::Transaction tx(store_);
        SampleWriter writer(store_);
        // Half the bar for the parse, half for the rows' writing (about their shares of the
        // judged CSV's import), which stops at the block after a Cancel.
        writer.setProgress(progressFor(pf.size, 0.5, 1.0));
        const auto rows = pf.importer->asCounters()->parse(in, writer, diag, progressFor(pf.size, 0.0, 0.5));
        cores_->open();  // the parse is over, whether or not it said so: the hashes may run
        writer.flush();
        if (writer.unmappedSeries() > 0)
            diag.warn(0, std::to_string(writer.unmappedSeries()) + " series name nodes not in the topology; kept as unmapped (see 'fabscope info')");
        if (writer.duplicateSamples() > 0)
            diag.warn(0, std::to_string(writer.duplicateSamples()) +
                             " samples repeat a counter of the same port at a time already stored (e.g. perfquery and perfquery -x"
                             " of one snapshot): one kept per time, the 64-bit value (the one not stuck at a legacy ceiling)");
        // A Cancel clicked while the samples were written (after the parse's last progress call)
        // still stops the import: nothing of the file is committed.
        if (const ProgressFn p = progressFor(pf.size); p && !p(1.0)) throw ImportCancelled();
        // While the hash of a large file is still running, its pages reach the disk.
        if (pf.shaLater.valid() && pf.shaLater.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            writeAheadOfCommit(store_);
        store_.recordImport(pf.path, shaOf(pf), std::string(pf.importer->name()), rows, 0, pf.nameKey);
        if (pf.size >= kHashAlongsideBytes) pf.releaseBeside();  // parsed and hashed (shaOf waited)
        pf.kept.clear();  // a small file's, now
        tx.commit();
        return rows;
    }

    // 2b. A cabling plan: a snapshot of its own, named by its file, never merged with a discovered fabric.
    std::int64_t writePlanFile(const PendingFile& pf, const ImportInput& in, DiagnosticSink& diag) {
        const auto result = pf.importer->asTopology()->parse(in, diag, progressFor(pf.size));
        const auto rows = static_cast<std::int64_t>(result.fabric.nodes.size() + result.fabric.links.size());
        Store::Transaction tx(store_);
        const std::int64_t sid = store_.writeSnapshot(result.fabric, fs::path(pf.path).filename().string(), result.time.value_or(in.mtime), true);
        store_.recordImport(pf.path, pf.sha, std::string(pf.importer->name()), rows, sid, pf.nameKey);
        tx.commit();
        return rows;
    }

    // 4. Job files (rank -> host, device), one job each.
    std::int64_t writeJobFile(const PendingFile& pf, const ImportInput& in, DiagnosticSink& diag) {
        auto job = pf.importer->asJob()->parse(in, diag, progressFor(pf.size));
        if (!job.details.time) job.details.time = in.mtime;
        const auto rows = static_cast<std::int64_t>(job.ranks.size());
        Store::Transaction tx(store_);
        const std::int64_t importId = store_.recordImport(pf.path, pf.sha, std::string(pf.importer->name()), rows, 0, pf.nameKey);
        writeJob(store_, job.name, importId, job.ranks, job.details);
        alsoABenchmark(store_, registry_, pf, in, diag, importId);
        tx.commit();
        return rows;
    }

    // 5. Probe and benchmark results (pingmesh, perftest, nccl-tests).
    std::int64_t writeProbeFile(const PendingFile& pf, const ImportInput& in, DiagnosticSink& diag) {
        const auto result = pf.importer->asProbes()->parse(in, diag, progressFor(pf.size));
        const std::int64_t rows = result.rows();
        Store::Transaction tx(store_);
        const std::int64_t importId = store_.recordImport(pf.path, pf.sha, std::string(pf.importer->name()), rows, 0, pf.nameKey);
        writeProbes(store_, importId, result.probes);
        for (const auto& run : result.runs) writeCollectiveRun(store_, importId, run);
        alsoAJob(store_, registry_, pf, in, diag, importId);
        tx.commit();
        return rows;
    }

    Store& store_;
    const ImporterRegistry& registry_;
    const ImportOptions& options_;
    const ProgressFn& progress_;
    const Importer* forced_ = nullptr;
    ImportSummary summary_;
    std::vector<PendingFile> topo_, plans_, counters_, jobs_, probes_;
    std::uint64_t totalBytes_ = 0, doneBytes_ = 0;
    std::size_t filesStarted_ = 0;  // ImportOptions::onFile's count
    mutable double shown_ = 0;  // the share of all files last shown (progressFor)
    std::optional<FabricIndex> index_;
    std::set<std::pair<std::string, std::string>> seen_;  // (SHA-256, names from the path) of this call's files
    struct Twin {
        std::string path, sha, nameKey;
    };
    std::vector<Twin> twins_;  // see settleTwins
    // Shared with the hash threads, which may outlive the session's files by a moment.
    std::shared_ptr<CoreGate> cores_ = std::make_shared<CoreGate>();
    bool indexBuilt_ = false;
    bool topologyWritten_ = false;
};

} // namespace

ImportSummary ImportRunner::run(const std::vector<std::string>& paths, const ImportOptions& options, const ProgressFn& progress) {
    return ImportSession(store_, registry_, options, progress).run(paths);
}

} // namespace fabscope
