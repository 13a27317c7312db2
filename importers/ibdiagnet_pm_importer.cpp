#include "importers/ibdiagnet_pm_importer.h"

#include "importers/ib_counter_names.h"
#include "importers/ibdiagnet_port_block.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <cctype>
#include <cmath>
#include <map>

namespace fabscope {
namespace {

// A .pm key ("_extended" removed) -> the db_csv PM_INFO column of the same counter, so both files
// of a run fill the same series. Three basic counters have names of their own in .pm.
std::string pmColumnName(std::string_view key) {
    static const std::map<std::string_view, std::string_view> kRenamed{
        {"link_down_counter", "LinkDownedCounter"},
        {"port_xmit_discard", "PortXmitDiscards"},
        {"excessive_buffer_errors", "ExcessiveBufferOverrunErrors"}};
    if (const auto it = kRenamed.find(key); it != kRenamed.end()) return std::string(it->second);
    static const std::map<std::string_view, std::string_view> kWords{
        {"unicast", "UniCast"}, {"multicast", "MultiCast"}, {"dlid", "DLID"}, {"vl", "VL"},
        {"vl15", "VL15"},       {"mtu", "MTU"},             {"hoq", "HOQ"},   {"qp1", "QP1"}};
    std::string out;
    while (!key.empty()) {
        const auto end = key.find('_');
        const std::string_view word = key.substr(0, end);
        if (const auto it = kWords.find(word); it != kWords.end()) {
            out += it->second;
        } else if (!word.empty()) {
            out += static_cast<char>(std::toupper(static_cast<unsigned char>(word[0])));
            out += word.substr(1);
        }
        key = end == std::string_view::npos ? std::string_view{} : key.substr(end + 1);
    }
    return out;
}

struct Reading {
    IbField field;
    std::uint64_t raw = 0;
    bool extended = false;
};

struct PortBlock {
    std::string node, port;
    std::map<std::string, Reading> counters;  // stored counter name -> reading
};

class Parser {
public:
    Parser(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag) : in_(in), out_(out), diag_(diag) {}

    void line(std::string_view raw, std::int64_t n) {
        line_ = n;
        const std::string_view l = trim(raw);
        if (l.empty() || l.find_first_not_of('-') == std::string_view::npos) return;
        if (l.front() == '#') {
            if (const auto t = ibdiagnetRunningTimestamp(l)) time_ = t;
            return;
        }
        if (l.starts_with("Port=")) return startPort(l);
        const auto eq = l.find('=');
        if (eq == std::string_view::npos || eq == 0)
            diag_.fail(n, "expected 'counter_name=0x<hex>' or 'Port=..', got '" + std::string(l.substr(0, 80)) + "'");
        if (!current_) diag_.fail(n, "counter line before any 'Port=.. GUID=..' line");
        counter(trim(l.substr(0, eq)), trim(l.substr(eq + 1)));
    }

    std::int64_t finish() {
        if (blocks_.empty()) diag_.fail(1, "no 'Port=N Lid=0x.. GUID=0x..' block: not an ibdiagnet2.pm file");
        if (!time_) diag_.warn(1, "no '# Running timestamp' header: the counters are dated by the file's mtime");
        const auto ms = std::llround(time_.value_or(in_.mtime) * 1000.0);
        std::int64_t rows = 0, stuck = 0;
        for (const PortBlock& b : blocks_) {
            for (const auto& [name, r] : b.counters) {
                if (!r.extended && r.raw == 0xffffffffULL) {  // a 32-bit counter at its ceiling gives no rate
                    ++stuck;
                    continue;
                }
                out_.add(out_.series(b.node, b.port, r.field.info), ms, static_cast<double>(r.raw) * r.field.scale);
                ++rows;
            }
        }
        if (rows == 0) diag_.fail(line_, "port blocks without any counter value");
        if (unmapped_ > 0)
            diag_.warn(firstUnmappedLine_, std::to_string(unmapped_) + " ports' GUIDs are " +
                                               (in_.fabric ? "not in the stored topology" : "not placed: no topology imported yet") +
                                               ": their counters are kept under the port GUID (import the fabric first)");
        if (stuck > 0)
            diag_.warn(1, std::to_string(stuck) + " 32-bit counters are stuck at 4294967295 with no 64-bit form beside them: not stored");
        if (unsupported_ > 0)
            diag_.info(firstUnsupportedLine_, std::to_string(unsupported_) + " values are NA (counter not supported by the port): not stored");
        return rows;
    }

private:
    void startPort(std::string_view l) {
        const auto p = parseIbdiagnetPortLine(l);
        if (!p) diag_.fail(line_, "expected 'Port=<1-255> Lid=0x.. GUID=0x<hex> ..', got '" + std::string(l.substr(0, 80)) + "'");
        std::string node = p->guid;
        bool placed = false;
        if (in_.fabric) {
            if (const auto it = in_.fabric->byPortGuid.find(p->guid); it != in_.fabric->byPortGuid.end()) {
                node = it->second.first;  // an HCA's port GUID -> its node
                placed = true;
            } else {
                placed = in_.fabric->nodeGuids.count(p->guid) > 0;  // a switch: its ports share its GUID
            }
        }
        if (!placed && unmapped_++ == 0) firstUnmappedLine_ = line_;
        const std::string port = std::to_string(p->port);
        auto [it, added] = at_.try_emplace(node + '/' + port, blocks_.size());
        if (added) blocks_.push_back({});
        else diag_.warn(line_, "port " + port + " of " + node + " appears again: this block replaces the earlier one");
        current_ = &blocks_[it->second];
        *current_ = PortBlock{std::move(node), port, {}};
    }

    void counter(std::string_view key, std::string_view value) {
        if (isIbdiagnetRate(key)) return;
        const bool extended = key.ends_with("_extended");
        if (extended) key.remove_suffix(9);
        const auto field = ibCounterField(pmColumnName(key));
        if (!field) return;
        if (value == "NA" || value == "N/A") {
            if (unsupported_++ == 0) firstUnsupportedLine_ = line_;
            return;
        }
        const auto v = parseU64(value);
        if (!v) diag_.fail(line_, "bad counter value '" + std::string(value.substr(0, 30)) + "' of " + std::string(key));
        auto [it, added] = current_->counters.try_emplace(field->info.name, Reading{*field, *v, extended});
        if (!added && (extended || !it->second.extended)) it->second = Reading{*field, *v, extended};  // the 64-bit value wins
    }

    const ImportInput& in_;
    SampleWriter& out_;
    DiagnosticSink& diag_;
    std::optional<double> time_;
    std::vector<PortBlock> blocks_;
    std::map<std::string, std::size_t> at_;  // "node/port" -> index in blocks_
    PortBlock* current_ = nullptr;
    std::int64_t line_ = 0, unmapped_ = 0, firstUnmappedLine_ = 0, unsupported_ = 0, firstUnsupportedLine_ = 0;
};

} // namespace

int IbdiagnetPmImporter::detect(std::string_view head) const {
    if (!hasIbdiagnetPortLines(head)) return 0;
    int keys = 0;
    for (std::string_view key : {"\nlink_down_counter=", "\nsymbol_error_counter=", "\nport_xmit_data=", "\nport_rcv_errors="})
        keys += head.find(key) != std::string_view::npos;
    if (keys == 0) return 0;
    return 75 + 5 * keys;
}

std::int64_t IbdiagnetPmImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                       const ProgressFn& progress) const {
    Parser p(in, out, diag);
    LineReader reader(in.bytes, &progress);
    std::string_view line;
    while (reader.next(line)) p.line(line, reader.number());
    return p.finish();
}

} // namespace fabscope
