#include "importers/ibdiagnet_db_csv_importer.h"

#include "core/fabric_builder.h"
#include "core/linkrate.h"
#include "importers/ib_counter_names.h"
#include "importers/ibdiagnet_folder.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace fabscope {
namespace {

// One CSV row; NodeDesc is quoted and may hold commas ("MF0;leaf01:MQM8700/U1").
std::vector<std::string> splitCsv(std::string_view l) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < l.size(); ++i) {
        const char c = l[i];
        if (quoted) {
            if (c == '"' && i + 1 < l.size() && l[i + 1] == '"') out.back() += '"', ++i;
            else if (c == '"') quoted = false;
            else out.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else {
            out.back() += c;
        }
    }
    for (auto& f : out) f = std::string(trim(f));  // some versions pad header names with spaces
    return out;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// `-1`, `N/A` and 0xfffffffffffffffe mark a counter the port does not support: missing, not a number.
bool unsupported(std::string_view v) {
    return v == "-1" || v == "N/A" || v == "NA" || v.empty() || lower(v) == "0xfffffffffffffffe";
}

// LinkWidthActv is the IBA bit: 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x.
std::optional<int> widthFromCode(std::uint64_t code) {
    switch (code) {
    case 1: return 1;
    case 2: return 4;
    case 4: return 8;
    case 8: return 12;
    case 16: return 2;
    default: return std::nullopt;
    }
}

// LinkSpeedActv: ibdiagnet's combined code, written in decimal: the legacy PortInfo speed in the
// low byte (0x1/0x2/0x4 SDR..QDR), the extended speed shifted up (0x100 FDR, 0x200 EDR, 0x400 HDR,
// 0x800 NDR, 0x1000 XDR) and 0x10000 FDR10. Real NDR fabrics write both at once: 2052 = 0x804 is
// NDR with the legacy field still saying QDR, so the highest extended bit wins. The codes UFM's
// tools use (8 FDR10 .. 128 NDR) do not collide and are read too.
std::string speedFromCode(std::uint64_t code) {
    if (code > 0xff && code < 0x10000 && (code & (code - 1)) != 0) {  // several bits: the fastest
        for (std::uint64_t bit = 0x1000; bit >= 0x100; bit >>= 1)
            if (code & bit) return speedFromCode(bit);
    }
    switch (code) {
    case 0x1: return "SDR";
    case 0x2: return "DDR";
    case 0x4: return "QDR";
    case 0x100: case 16: return "FDR";
    case 0x200: case 32: return "EDR";
    case 0x400: case 64: return "HDR";
    case 0x800: case 128: return "NDR";
    case 0x1000: return "XDR";
    case 0x10000: case 8: return "FDR10";
    default: return "???";
    }
}

PortState stateFromCode(std::uint64_t code) {
    switch (code) {
    case 1: return PortState::Down;
    case 2: return PortState::Init;
    case 3: return PortState::Armed;
    case 4: return PortState::Active;
    default: return PortState::Unknown;
    }
}

// PM_INFO column -> stored counter. "...Extended"/"...Ext" columns are the 64-bit forms of the
// basic counters and share their series; the extended value wins when the port supports it.
struct PmColumn {
    std::size_t index = 0;
    IbField field;
    bool extended = false;
};

std::optional<PmColumn> pmColumn(std::string_view name, std::size_t index) {
    if (isIbdiagnetRate(name)) return std::nullopt;
    bool extended = false;
    for (std::string_view suffix : {"Extended", "Ext"}) {
        if (name.size() > suffix.size() && name.ends_with(suffix)) {
            name.remove_suffix(suffix.size());
            extended = true;
            break;
        }
    }
    const auto field = ibCounterField(name);
    if (!field) return std::nullopt;
    return PmColumn{index, *field, extended};
}

// ibdiagnet's own findings: WARNINGS_FW_CHECK, ERRORS_..., one table layout for all.
bool isEventSection(std::string_view name) {
    return (name.starts_with("WARNINGS_") && name.size() > 9) || (name.starts_with("ERRORS_") && name.size() > 7);
}

class Parser {
public:
    Parser(const ImportInput& in, DiagnosticSink& diag) : in_(in), diag_(diag) {}

    void line(std::string_view raw, std::int64_t n) {
        line_ = n;
        const std::string_view l = trim(raw);
        if (section_.empty()) {
            if (l.empty() || l.front() == '#') return;
            if (l.starts_with("START_")) return start(l.substr(6));
            if (l.starts_with("END_")) diag_.fail(n, std::string(l) + " without a matching START_ line");
            diag_.warn(n, "ignored a line outside any START_/END_ section: " + std::string(l.substr(0, 60)));
            return;
        }
        if (l.starts_with("END_")) {
            if (l.substr(4) != section_)
                diag_.fail(n, std::string(l) + " ends section " + section_ + " (started at line " + std::to_string(sectionLine_) + ")");
            if (!skipping_ && header_.empty()) diag_.fail(n, "section " + section_ + " has no header row");
            finishSection();
            return;
        }
        if (l.starts_with("START_"))
            diag_.fail(n, "section " + section_ + " (started at line " + std::to_string(sectionLine_) + ") has no END_" + section_ +
                              " before " + std::string(l));
        if (skipping_ || l.empty()) return;
        auto fields = splitCsv(l);
        if (header_.empty()) {
            header_ = std::move(fields);
            return startColumns();
        }
        if (fields.size() != header_.size())
            diag_.fail(n, std::to_string(fields.size()) + " fields in a " + section_ + " row; its header has " +
                              std::to_string(header_.size()));
        if (section_ == "NODES") nodeRow(fields);
        else if (section_ == "PORTS") portRow(fields);
        else if (section_ == "LINKS") linkRows_.push_back({std::move(fields), n});
        else if (section_ == "RUN_INFO") runInfoRow(fields);
        else if (isEventSection(section_)) eventRow(fields);
        else pmRow(fields, section_ == "PM_DELTA" ? delta_ : pm_);
    }

    TopologyResult finish() {
        if (!section_.empty())
            diag_.fail(line_, "file ends inside section " + section_ + " (started at line " + std::to_string(sectionLine_) +
                                  "): no END_" + section_ + ", the file is truncated");
        if (!seen_.count("NODES")) diag_.fail(line_, "no START_NODES section: not an ibdiagnet2.db_csv topology");
        for (const auto& [fields, n] : linkRows_) linkRow(fields, n);
        section_.clear();
        if (!seen_.count("LINKS"))
            diag_.warn(line_, "no START_LINKS section up to this last line (disabled or truncated output): nodes stored without links");
        if (!ignored_.empty()) {
            std::string names;
            for (const auto& s : ignored_) names += (names.empty() ? "" : ", ") + s;
            diag_.warn(firstIgnoredLine_, std::to_string(ignored_.size()) + " sections not read: " + names);
        }
        if (unsupported_ > 0)
            diag_.warn(firstUnsupportedLine_, std::to_string(unsupported_) +
                                                  " PM_INFO values are -1, N/A or 0xfffffffffffffffe (counter not supported): not stored");
        TopologyResult r;
        r.fabric = builder_.take();
        if (!events_.empty()) {
            std::map<std::string, std::size_t> byCheck;
            std::size_t errors = 0;
            for (const FabricEvent& e : events_) {
                ++byCheck[(e.error ? "ERRORS_" : "WARNINGS_") + e.check];
                errors += e.error;
            }
            std::string list;
            for (const auto& [check, n] : byCheck) list += (list.empty() ? "" : ", ") + check + " " + std::to_string(n);
            auto count = [](std::size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
            diag_.info(events_.front().line, "ibdiagnet reported " + count(events_.size() - errors, "warning") + " and " +
                                                 count(errors, "error") + " (" + list + "): kept with the nodes they name");
            r.events = std::move(events_);
        }
        r.time = runTime_;
        if (!runTime_ && !pm_.empty())
            diag_.warn(line_, "no RUN_INFO Date: the counters are dated by the file's mtime");
        const auto ms = std::llround(runTime_.value_or(in_.mtime) * 1000.0);
        // PM_DELTA is the change over ibdiagnet's pause between its two reads: a second sample one
        // pause later, so one run gives a rate per counter.
        const auto logged = delta_.empty() ? std::nullopt : ibdiagnetCounterPause(in_.file);  // read the log once
        const double pause = logged.value_or(1.0);
        std::size_t stuck = 0;
        for (auto& [key, v] : pm_) {
            v.sample.timeMs = ms;
            const auto d = delta_.find(key);
            if (v.saturated) {
                ++stuck;
                continue;  // a ceiling value gives no rate: left out rather than stored as a level
            }
            if (d != delta_.end()) {
                auto second = v.sample;
                second.timeMs = ms + std::llround(pause * 1000.0);
                second.value += d->second.sample.value;
                r.samples.push_back(std::move(v.sample));
                r.samples.push_back(std::move(second));
            } else {
                r.samples.push_back(std::move(v.sample));
            }
        }
        if (stuck > 0)
            diag_.warn(firstSaturatedLine_, std::to_string(stuck) + " 32-bit PM_INFO counters are stuck at 4294967295 with no "
                                                                    "64-bit form beside them: not stored");
        if (!delta_.empty())
            diag_.info(line_, "PM_DELTA read as the counters' change over " + [&] { std::ostringstream o; o << pause; return o.str(); }() +
                                  " s (ibdiagnet's pause between its two reads" +
                                  (logged ? ", from ibdiagnet2.log)" : "; no ibdiagnet2.log beside it: its default)"));
        return r;
    }

private:
    struct Pm {
        TopologyResult::CounterSample sample;
        bool extended = false;
        bool saturated = false;  // a 32-bit value at 2^32-1 with no 64-bit form beside it
    };

    void start(std::string_view name) {
        section_ = std::string(trim(name));
        sectionLine_ = line_;
        header_.clear();
        const bool events = isEventSection(section_);
        skipping_ = section_ != "NODES" && section_ != "PORTS" && section_ != "LINKS" && section_ != "PM_INFO" &&
                    section_ != "PM_DELTA" && section_ != "RUN_INFO" && !events;
        if (skipping_ && ignored_.insert(section_).second && firstIgnoredLine_ == 0) firstIgnoredLine_ = line_;
        if (!skipping_ && !events && !seen_.insert(section_).second) diag_.fail(line_, "section " + section_ + " appears twice");
    }

    void finishSection() {
        section_.clear();
        skipping_ = false;
    }

    std::size_t column(std::string_view name, bool required = true) const {
        const std::string want = lower(name);
        for (std::size_t i = 0; i < header_.size(); ++i)
            if (lower(header_[i]) == want) return i;
        if (required) diag_.fail(line_, "the " + section_ + " header has no " + std::string(name) + " column");
        return npos;
    }

    void startColumns() {
        cols_.clear();
        pmCols_.clear();
        if (section_ == "NODES") {
            cols_ = {column("NodeGUID"), column("NodeType"), column("NodeDesc", false), column("NumPorts", false)};
        } else if (section_ == "PORTS") {
            cols_ = {column("NodeGuid"), column("PortNum"), column("PortGuid", false), column("LID", false),
                     column("LinkWidthActv", false), column("LinkSpeedActv", false), column("PortState", false)};
        } else if (section_ == "LINKS") {
            linkCols_ = {column("NodeGuid1"), column("PortNum1"), column("NodeGuid2"), column("PortNum2")};
            linkHeader_ = header_;
        } else if (section_ == "RUN_INFO") {
            cols_ = {column("Date", false)};
        } else if (isEventSection(section_)) {
            cols_ = {column("NodeGUID"), column("PortNumber", false), column("EventName"), column("Summary")};
        } else {
            cols_ = {column("NodeGUID"), column("PortNumber")};
            for (std::size_t i = 0; i < header_.size(); ++i)
                if (i != cols_[0] && i != cols_[1] && lower(header_[i]) != "portguid")
                    if (auto c = pmColumn(header_[i], i)) pmCols_.push_back(std::move(*c));
        }
    }

    std::string guid(const std::vector<std::string>& f, std::size_t col) const {
        std::string g = normaliseGuid(f[col]);
        if (g.empty()) diag_.fail(line_, "bad GUID '" + f[col].substr(0, 30) + "' in column " + header_[col]);
        return g;
    }

    std::uint64_t number(const std::vector<std::string>& f, std::size_t col, std::uint64_t max) const {
        const auto v = parseU64(f[col]);
        if (!v || *v > max) diag_.fail(line_, "bad number '" + f[col].substr(0, 30) + "' in column " + header_[col]);
        return *v;
    }

    std::optional<std::uint64_t> optionalNumber(const std::vector<std::string>& f, std::size_t col) const {
        if (col == npos || unsupported(f[col])) return std::nullopt;
        const auto v = parseU64(f[col]);
        if (!v) diag_.fail(line_, "bad number '" + f[col].substr(0, 30) + "' in column " + header_[col]);
        return v;
    }

    // A WARNINGS_/ERRORS_ row: "Scope,NodeGUID,PortGUID,PortNumber,EventName,Summary" (Scope and
    // PortGUID not in every version); port 0 (or 0x00) is the node itself.
    void eventRow(const std::vector<std::string>& f) {
        FabricEvent e;
        e.nodeGuid = guid(f, cols_[0]);
        if (const auto port = optionalNumber(f, cols_[1]); port && *port != 0) e.port = std::to_string(number(f, cols_[1], 255));
        e.error = section_.starts_with("ERRORS_");
        e.check = section_.substr(e.error ? 7 : 9);
        e.name = f[cols_[2]];
        e.summary = f[cols_[3]];
        e.line = line_;
        events_.push_back(std::move(e));
    }

    void nodeRow(const std::vector<std::string>& f) {
        Node node;
        node.guid = guid(f, cols_[0]);
        switch (number(f, cols_[1], 255)) {
        case 1: node.type = NodeType::Ca; break;
        case 2: node.type = NodeType::Switch; break;
        case 3: node.type = NodeType::Router; break;
        default: diag_.fail(line_, "NodeType '" + f[cols_[1]] + "' is not 1 (CA), 2 (switch) or 3 (router)");
        }
        if (cols_[2] != npos) node.description = f[cols_[2]];
        if (const auto p = optionalNumber(f, cols_[3])) node.numPorts = static_cast<int>(std::min<std::uint64_t>(*p, 255));
        nodes_[node.guid] = builder_.node(node);
    }

    NodeId knownNode(const std::string& g) const {
        const auto it = nodes_.find(g);
        if (it == nodes_.end()) diag_.fail(line_, "node " + g + " is not in the NODES section");
        return it->second;
    }

    void portRow(const std::vector<std::string>& f) {
        const NodeId node = knownNode(guid(f, cols_[0]));
        const int num = static_cast<int>(number(f, cols_[1], 254));
        const auto lid = optionalNumber(f, cols_[3]);
        if (num == 0) {  // a switch's management port: its LID is the switch's
            if (lid && *lid <= 0xffff) builder_.nodeRef(node).lid = static_cast<int>(*lid);
            return;
        }
        const PortId id = builder_.port(node, std::to_string(num), num);
        Port& p = builder_.portRef(id);
        if (cols_[2] != npos) p.portGuid = normaliseGuid(f[cols_[2]]);
        if (lid && *lid <= 0xffff) p.lid = static_cast<int>(*lid);
        if (const auto w = optionalNumber(f, cols_[4])) p.width = widthFromCode(*w);
        if (const auto s = optionalNumber(f, cols_[5])) p.speed = speedFromCode(*s);
        if (const auto st = optionalNumber(f, cols_[6])) p.state = stateFromCode(*st);
        widthSpeed_[id.value()] = {p.width, p.speed.empty() ? std::string("???") : p.speed};
    }

    // Links are read after every section: a LINKS section may come before PORTS.
    void linkRow(const std::vector<std::string>& f, std::int64_t n) {
        line_ = n;
        header_ = linkHeader_;  // for the column names in messages
        section_ = "LINKS";
        PortId ends[2];
        for (int e = 0; e < 2; ++e) {
            const NodeId node = knownNode(guid(f, linkCols_[2 * e]));
            const int num = static_cast<int>(number(f, linkCols_[2 * e + 1], 254));
            ends[e] = builder_.port(node, std::to_string(num), num);
        }
        // Each end reports its own active width/speed; the builder keeps the lower capacity.
        for (int e = 0; e < 2; ++e) {
            const auto it = widthSpeed_.find(ends[e].value());
            const auto ws = it != widthSpeed_.end() ? it->second : WidthSpeed{std::nullopt, "???"};
            const auto report = builder_.link(ends[e], ends[1 - e], ws.width, ws.speed);
            if (report == FabricBuilder::LinkReport::Conflict)
                diag_.warn(n, "a port of this link already has another neighbour: the first link is kept");
            if (report == FabricBuilder::LinkReport::WidthMismatch)
                diag_.warn(n, "the two ends report different widths/speeds: the lower capacity is kept");
        }
    }

    void runInfoRow(const std::vector<std::string>& f) {
        if (cols_[0] == npos || runTime_) return;
        runTime_ = parseIbdiagnetDate(f[cols_[0]]);
        if (!runTime_) diag_.warn(line_, "RUN_INFO Date '" + f[cols_[0]].substr(0, 40) + "' is not a date: the file's mtime is used");
    }

    void pmRow(const std::vector<std::string>& f, std::map<std::string, Pm>& into) {
        const std::string node = guid(f, cols_[0]);
        const auto port = std::to_string(number(f, cols_[1], 254));
        for (const auto& c : pmCols_) {
            const std::string& text = f[c.index];
            if (unsupported(text)) {
                if (unsupported_++ == 0) firstUnsupportedLine_ = line_;
                continue;
            }
            const auto v = parseU64(text);
            if (!v) diag_.fail(line_, "bad counter value '" + text.substr(0, 30) + "' in column " + header_[c.index]);
            std::string key = node + '\x1f' + port + '\x1f' + c.field.info.name;
            Pm pm{{node, port, c.field.info, 0, static_cast<double>(*v) * c.field.scale}, c.extended};
            if (!c.extended && *v == 0xffffffffULL && &into == &pm_) {  // a 32-bit counter stuck at its ceiling
                if (saturated_++ == 0) firstSaturatedLine_ = line_;
                pm.saturated = true;
            }
            auto [it, added] = into.try_emplace(std::move(key), pm);
            if (added || (!c.extended && it->second.extended)) continue;  // a basic value never replaces the 64-bit one
            if (c.extended == it->second.extended && repeated_.insert(section_ + node + "/" + port).second)
                diag_.warn(line_, "port " + port + " of " + node + " appears twice in " + section_ + ": the later row is kept");
            it->second = std::move(pm);
        }
    }

    static constexpr std::size_t npos = std::string::npos;
    const ImportInput& in_;
    DiagnosticSink& diag_;
    FabricBuilder builder_;
    std::int64_t line_ = 0, sectionLine_ = 0, firstIgnoredLine_ = 0, firstUnsupportedLine_ = 0;
    std::string section_;
    bool skipping_ = false;
    std::vector<std::string> header_;
    std::vector<std::size_t> cols_, linkCols_;  // the current section's columns; LINKS' kept for finish()
    std::vector<std::string> linkHeader_;
    std::vector<PmColumn> pmCols_;
    std::set<std::string> seen_, ignored_, repeated_;
    std::map<std::string, NodeId> nodes_;
    std::map<std::uint64_t, WidthSpeed> widthSpeed_;  // port index -> active width/speed
    std::vector<std::pair<std::vector<std::string>, std::int64_t>> linkRows_;
    std::map<std::string, Pm> pm_;     // node/port/counter -> PM_INFO value (the first reading)
    std::map<std::string, Pm> delta_;  // node/port/counter -> PM_DELTA (the change over the pause)
    std::optional<double> runTime_;    // RUN_INFO Date
    std::vector<FabricEvent> events_;  // WARNINGS_/ERRORS_ rows
    std::int64_t saturated_ = 0, firstSaturatedLine_ = 0;
    std::int64_t unsupported_ = 0;
};

} // namespace

int IbdiagnetDbCsvImporter::detect(std::string_view head) const {
    int score = 0;
    for (std::string_view tag : {"START_NODES", "START_PORTS", "START_LINKS", "START_PM_INFO"})
        if (head.find(tag) != std::string_view::npos) score += 30;
    if (head.find("automatically generated by IBDIAG") != std::string_view::npos) score += 30;
    return std::min(score, 100);
}

TopologyResult IbdiagnetDbCsvImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    Parser p(in, diag);
    LineReader reader(in.bytes, &progress);
    std::string_view line;
    while (reader.next(line)) {
        p.line(line, reader.number());
    }
    return p.finish();
}

} // namespace fabscope
