#include "importers/ibqueryerrors_importer.h"

#include "core/fabric_builder.h"
#include "importers/ib_counter_names.h"
#include "importers/line_reader.h"
#include "importers/series_collector.h"
#include "importers/text_util.h"

#include <cmath>

namespace fabscope {

int IbqueryerrorsImporter::detect(std::string_view head) const {
    int score = 0;
    if (head.find("Errors for 0x") != std::string_view::npos) score += 50;
    if (head.find("Data Counters for 0x") != std::string_view::npos) score += 50;
    if (head.find("   GUID 0x") != std::string_view::npos && head.find(" == ") != std::string_view::npos) score += 30;
    if (head.find("## Summary: ") != std::string_view::npos) score += 30;
    return std::min(score, 95);
}

std::int64_t IbqueryerrorsImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                          const ProgressFn& progress) const {
    SeriesCollector collector;
    double time = in.mtime;
    std::int64_t samples = 0;
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto n = reader.number();
        const std::string_view l = trim(raw);
        if (l.empty() || l.starts_with("##")) continue;  // summary and thresholds
        if (auto t = parseTimeLine(l)) {
            time = *t;
            continue;
        }
        if (l.starts_with("Errors for ") || l.starts_with("Data Counters for ")) continue;  // GUID repeated per port
        if (!l.starts_with("GUID ")) {
            diag.warn(n, "ignored a line that is not ibqueryerrors output: " + std::string(l.substr(0, 60)));
            continue;
        }
        // "GUID 0x200004 port 4: [SymbolErrorCounter == 17] [PortXmitData == 2016 (7.875KB)]"
        const auto colon = l.find(':');
        if (colon == std::string_view::npos) diag.fail(n, "port line without ':'");
        std::string_view head = l.substr(5, colon - 5);
        const auto sp = head.find(" port ");
        if (sp == std::string_view::npos) diag.fail(n, "expected 'GUID 0x... port P:'");
        const std::string guid = normaliseGuid(trim(head.substr(0, sp)));
        const std::string_view portText = trim(head.substr(sp + 6));
        if (guid.empty()) diag.fail(n, "bad GUID in '" + std::string(head) + "'");
        if (portText == "ALL") continue;  // the node's sum over its ports
        const auto port = parseU64(portText);
        if (!port || *port > 254) diag.fail(n, "bad port number '" + std::string(portText) + "'");
        std::string_view rest = l.substr(colon + 1);
        for (auto open = rest.find('['); open != std::string_view::npos; open = rest.find('[')) {
            const auto close = rest.find(']', open);
            if (close == std::string_view::npos) diag.fail(n, "unclosed '[' in a counter list");
            const std::string_view item = rest.substr(open + 1, close - open - 1);
            rest = rest.substr(close + 1);
            const auto eq = item.find(" == ");
            if (eq == std::string_view::npos) continue;  // e.g. "[ext 3]" port tags
            const auto field = ibCounterField(trim(item.substr(0, eq)));
            std::string_view value = trim(item.substr(eq + 4));
            value = value.substr(0, value.find(' '));  // drop "(7.875KB)"
            const auto v = parseU64(value);
            if (!field) continue;
            if (!v) {
                diag.warn(n, "value '" + std::string(value) + "' is not a number: skipped");
                continue;
            }
            collector.add(PromTarget{guid, std::to_string(*port), field->info, field->scale}, std::llround(time * 1000.0),
                          static_cast<double>(*v), n);
            ++samples;
        }
    }
    if (samples == 0)
        diag.fail(0, "no port counters found (a clean fabric prints none without --counters: nothing to import)");
    return collector.write(out, diag);
}

} // namespace fabscope
