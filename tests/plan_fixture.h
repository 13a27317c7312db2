#pragma once
// A fabric cabled from a plan, with faults, as ibnetdiscover prints it: what the cabling-plan
// tests import beside the plan (tst_ib_cabling_plan, tst_view_cabling_plan).
#include "ib_test_util.h"
#include "importers/ibdm_topo_importer.h"

#include <cstdio>
#include <string>

namespace plantest {

using namespace fabscope;

// ibnetdiscover output of `f` as the cluster would show it: switches "MF0;<name>:MTS800/U1",
// adapters "<name> HCA-1", every link 4x HDR, GUIDs made up per node.
inline std::string asIbnetdiscover(const Fabric& f) {
    auto guid = [](std::size_t i) {
        char b[32];
        std::snprintf(b, sizeof b, "%016zx", 0x2c9000100000 + i * 2);
        return std::string(b);
    };
    auto desc = [&](std::size_t i) {
        const Node& n = f.nodes[i];
        return n.type == NodeType::Switch ? "MF0;" + n.description + ":MTS800/U1" : n.description + " HCA-1";
    };
    std::string out = "#\n# Topology file: generated on Sat Dec  5 10:00:00 2026\n#\n";
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
        const bool sw = f.nodes[i].type == NodeType::Switch;
        out += "\nvendid=0x2c9\ndevid=0x1\nsysimgguid=0x" + guid(i) + "\n" + (sw ? "switchguid=0x" : "caguid=0x") + guid(i) + "\n";
        out += std::string(sw ? "Switch\t8 \"S-" : "Ca\t1 \"H-") + guid(i) + "\"\t\t# \"" + desc(i) + "\"" +
               (sw ? " enhanced port 0 lid " + std::to_string(i + 1) + " lmc 0" : "") + "\n";
        for (const Link& l : f.links)
            for (const auto& [mine, other] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
                if (f.port(mine).node.value() != i) continue;
                const std::size_t j = f.port(other).node.value();
                const bool peerSw = f.nodes[j].type == NodeType::Switch;
                out += "[" + f.port(mine).name + "]" + (sw ? "" : "(" + guid(i) + ") ") + "\t\"" + (peerSw ? "S-" : "H-") + guid(j) + "\"[" +
                       f.port(other).name + "]\t\t# " + (sw ? "" : "lid " + std::to_string(i + 1) + " lmc 0 ") + "\"" + desc(j) + "\" lid " +
                       std::to_string(j + 1) + " 4xHDR\n";
            }
    }
    return out;
}

// ibnetdiscover of `planText` (an ibdm topology file) as cabled with three faults: H-10's cable
// never plugged (SW-1-2 P2; H-10 then never discovered), SW-1-2 P6 to SW-0-1 P3 left out, and
// H-1 and H-2 swapped on SW-1-0's ports 1 and 2.
inline std::string miscabledFabric(const std::string& planText) {
    using ibtest::replaceAll;
    std::string cabled = replaceAll(planText, "   P2 -> Cougar H-10 P1\n", "");
    cabled = replaceAll(cabled, "   P6 -> MTS800 SW-0-1 P3\n", "");
    cabled = replaceAll(cabled, "P1 -> Cougar H-1 P1", "P1 -> Cougar H-X P1");
    cabled = replaceAll(cabled, "P2 -> Cougar H-2 P1", "P2 -> Cougar H-1 P1");
    cabled = replaceAll(cabled, "P1 -> Cougar H-X P1", "P1 -> Cougar H-2 P1");
    DiagnosticSink diag("cabled.topo");
    return asIbnetdiscover(IbdmTopoImporter().parse(ImportInput{"cabled.topo", cabled, 0}, diag, {}).fabric);
}

} // namespace plantest
