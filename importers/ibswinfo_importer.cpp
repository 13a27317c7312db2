#include "importers/ibswinfo_importer.h"

#include "core/analysis/format.h"
#include "core/fabric_builder.h"
#include "importers/line_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace fabscope {
namespace {

// One switch's report as read so far.
struct Report {
    std::int64_t line = 0;  // its "=====" header
    std::string guid, part, serial, firmware, uptime, temperature, maxTemperature;
    std::vector<std::string> psuWatts;  // "PSU0 72 W"
    std::vector<double> fanRpm;
    std::vector<FabricEvent> problems;
};

std::optional<double> number(std::string_view s) {
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc{} || r.ptr != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

bool isRule(std::string_view l, char c) { return l.size() >= 10 && l.find_first_not_of(c) == std::string_view::npos; }

class Parser {
public:
    explicit Parser(DiagnosticSink& diag) : diag_(diag) {}

    void line(std::string_view raw, std::int64_t n) {
        line_ = n;
        const std::string_view l = trim(raw);
        if (l.empty() || isRule(l, '-')) return;
        if (isRule(l, '=')) {
            if (!inTitle_) startSwitch();
            inTitle_ = !inTitle_;  // the title sits between two "=====" rules
            return;
        }
        if (inTitle_) return;  // "SwitchIB Mellanox Technologies"
        const auto bar = l.find('|');
        if (bar == std::string_view::npos) diag_.fail(n, "expected 'name | value', got '" + std::string(l.substr(0, 80)) + "'");
        if (!current_) diag_.fail(n, "a value before the switch's '=====' header");
        field(trim(l.substr(0, bar)), trim(l.substr(bar + 1)), raw.starts_with(' ') || raw.starts_with('\t'));
    }

    TopologyResult finish() {
        close();
        if (reports_ == 0) diag_.fail(1, "no switch report ('=====' header, then 'GUID | 0x..'): not ibswinfo output");
        return std::move(result_);
    }

private:
    void startSwitch() {
        close();
        current_ = Report{};
        current_->line = line_;
        psu_.clear();
    }

    // A value that must be a number when given ("foo" is a broken capture, not "no reading").
    std::optional<double> numeric(std::string_view name, std::string_view value) {
        if (value.empty() || value == "N/A" || value == "NA") return std::nullopt;
        const auto v = number(value);
        if (!v) diag_.fail(line_, std::string(name) + " '" + std::string(value.substr(0, 30)) + "' is not a number");
        return v;
    }

    void problem(const std::string& check, const std::string& name, std::string summary, bool error) {
        FabricEvent e;
        e.tool = "ibswinfo";
        e.error = error;
        e.check = check;
        e.name = name;
        e.summary = std::move(summary);
        e.line = line_;
        current_->problems.push_back(std::move(e));
    }

    // "OK" is fine; anything else is a problem; nothing at all is one the tool could not read.
    void status(const std::string& check, const std::string& name, const std::string& what, std::string_view value) {
        if (value == "OK") return;
        if (value.empty()) problem(check, name, what + " not reported", false);
        else problem(check, name, what + " " + std::string(value), true);
    }

    void field(std::string_view key, std::string_view value, bool indented) {
        Report& r = *current_;
        if (!indented) psu_.clear();
        if (key == "GUID") {
            r.guid = normaliseGuid(value);
            if (r.guid.empty()) diag_.fail(line_, "GUID '" + std::string(value.substr(0, 30)) + "' is not a hex GUID");
        } else if (key == "part number") {
            r.part = value;
        } else if (key == "serial number") {
            r.serial = value;
        } else if (key == "firmware version") {
            r.firmware = value;
        } else if (key.starts_with("uptime")) {
            r.uptime = value;
        } else if (key == "temperature (C)") {
            if (const auto t = numeric(key, value)) r.temperature = numfmt::num(*t) + " °C";
        } else if (key == "max temp (C)") {
            if (const auto t = numeric(key, value)) r.maxTemperature = numfmt::num(*t) + " °C";
        } else if (key == "fan status") {
            if (indented && !psu_.empty()) status("PSU", "PSU_FAN", psu_ + " fan", value);
            else status("FANS", "FAN_STATUS", "fan status", value);
        } else if (key.starts_with("fan#")) {
            if (const auto rpm = numeric(key, value)) r.fanRpm.push_back(*rpm);
        } else if (key.starts_with("PSU") && key.ends_with(" status")) {
            psu_ = key.substr(0, key.size() - 7);
            status("PSU", "PSU_STATUS", psu_ + " status", value);
        } else if (indented && !psu_.empty() && key == "DC power") {
            status("PSU", "PSU_DC_POWER", psu_ + " DC power", value);
        } else if (indented && !psu_.empty() && key == "power (W)") {
            if (const auto w = numeric(key, value)) r.psuWatts.push_back(psu_ + " " + numfmt::num(*w) + " W");
        }
    }

    // One note per switch: what ibswinfo said, so the import log reads as an inventory too.
    void close() {
        if (!current_) return;
        Report& r = *current_;
        if (r.guid.empty()) diag_.fail(r.line, "switch report without a 'GUID | 0x..' line: it cannot be placed on the fabric");
        std::string note = "switch " + r.guid;
        std::string id = r.part + (r.serial.empty() ? "" : " SN " + r.serial) + (r.firmware.empty() ? "" : ", firmware " + r.firmware);
        if (!id.empty()) note += " (" + id + ")";
        std::string facts;
        auto add = [&facts](const std::string& s) { facts += (facts.empty() ? "" : ", ") + s; };
        if (!r.uptime.empty()) add("up " + r.uptime);
        if (!r.temperature.empty()) add(r.temperature + (r.maxTemperature.empty() ? "" : " (highest seen " + r.maxTemperature + ")"));
        if (!r.psuWatts.empty()) {
            std::string w;
            for (const auto& p : r.psuWatts) w += (w.empty() ? "" : ", ") + p;
            add(w);
        }
        if (!r.fanRpm.empty()) {
            const auto [lo, hi] = std::minmax_element(r.fanRpm.begin(), r.fanRpm.end());
            add(std::to_string(r.fanRpm.size()) + " fans at " + numfmt::num(*lo, 4) + "-" + numfmt::num(*hi, 4) + " rpm");
        }
        if (!facts.empty()) note += ": " + facts;
        note += r.problems.empty() ? "; every status OK" : "; " + std::to_string(r.problems.size()) + " not OK";
        for (auto& e : r.problems) {
            e.nodeGuid = r.guid;
            note += (&e == &r.problems.front() ? " (" : ", ") + e.summary;
            result_.events.push_back(std::move(e));
        }
        if (!r.problems.empty()) note += ")";
        diag_.info(r.line, note);
        ++reports_;
        current_.reset();
    }

    DiagnosticSink& diag_;
    TopologyResult result_;
    std::optional<Report> current_;
    std::string psu_;  // the power supply whose indented lines follow ("PSU1")
    bool inTitle_ = false;
    std::int64_t line_ = 0;
    std::size_t reports_ = 0;
};

} // namespace

int IbswinfoImporter::detect(std::string_view head) const {
    int score = 0;
    for (std::string_view key : {"\nGUID ", "\nfirmware version ", "\nPSU0 status ", "\nuptime (d-h:m:s) ", "\nfan status "})
        score += head.find(key) != std::string_view::npos ? 15 : 0;
    if (head.starts_with("=====") && head.find("Mellanox Technologies\n=====") != std::string_view::npos) score += 20;
    return score >= 45 ? std::min(score, 95) : 0;
}

TopologyResult IbswinfoImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    Parser p(diag);
    LineReader reader(in.bytes, &progress);
    std::string_view line;
    while (reader.next(line)) p.line(line, reader.number());
    return p.finish();
}

} // namespace fabscope
