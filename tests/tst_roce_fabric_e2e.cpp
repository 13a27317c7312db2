// Issue 4 "done when": a leaf-spine RoCE fabric given as per-device `lldpctl -f json` files (written
// here from a small spec in lldpd's real json shapes) plus ethtool and SONiC counter captures imports
// with every link present once and every series mapped to a port of the fabric; a capture of a host
// that is not in the fabric, and RDMA-device counters (`mlx5_0/1`) nothing ties to a netdev, are
// kept and listed as unmapped (what `fabscope info` prints).
#include "core/store/store.h"
#include "core/unmapped_series.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <fstream>
#include <map>
#include <set>

using namespace fabscope;

namespace {

// The spec: every cable as (device, port, device, port). Hosts have one RoCE NIC, ens1f0np0.
struct Cable {
    std::string a, ap, b, bp;
};

std::vector<Cable> leafSpine(int spines, int leaves, int hostsPerLeaf) {
    std::vector<Cable> c;
    for (int l = 1; l <= leaves; ++l) {
        const std::string leaf = "leaf0" + std::to_string(l);
        for (int s = 1; s <= spines; ++s)
            c.push_back({leaf, "Ethernet" + std::to_string(44 + 4 * s), "spine0" + std::to_string(s),
                         "Ethernet" + std::to_string(4 * (l - 1))});
        for (int h = 1; h <= hostsPerLeaf; ++h)
            c.push_back({"gpu" + std::to_string((l - 1) * hostsPerLeaf + h), "ens1f0np0", leaf,
                         "Ethernet" + std::to_string(4 * (h - 1))});
    }
    return c;
}

bool isHost(const std::string& d) { return d.starts_with("gpu"); }

std::string mac(const std::string& device, const std::string& port) {
    const auto h = std::hash<std::string>{}(device + port);
    char buf[32];
    std::snprintf(buf, sizeof buf, "0c:42:a1:%02x:%02x:%02x", unsigned(h & 0xff), unsigned((h >> 8) & 0xff),
                  unsigned((h >> 16) & 0xff));
    return buf;
}

// One neighbour entry in lldpd's `-f json` shape: a switch sends its port as ifname, a host
// running lldpd sends its MAC as port id and the interface name as description.
std::string neighbour(const std::string& localPort, const std::string& dev, const std::string& port) {
    const bool host = isHost(dev);
    const std::string caps = host ? R"([{"type": "Bridge", "enabled": false}, {"type": "Router", "enabled": false},
                       {"type": "Wlan", "enabled": false}, {"type": "Station", "enabled": true}])"
                                  : R"([{"type": "Bridge", "enabled": true}, {"type": "Router", "enabled": true}])";
    const std::string portObj = host ? R"({"id": {"type": "mac", "value": ")" + mac(dev, port) + R"("}, "descr": ")" + port +
                                           R"(", "ttl": "120"})"
                                     : R"({"id": {"type": "ifname", "value": ")" + port + R"("}, "descr": "etp", "ttl": "120"})";
    return R"({")" + localPort + R"(": {"via": "LLDP", "rid": "1", "age": "0 day, 02:00:00",
      "chassis": {")" + dev + R"(": {"id": {"type": "mac", "value": ")" + mac(dev, "") + R"("},
        "descr": ")" + (host ? "Ubuntu 22.04.4 LTS" : "SONiC Software Version: SONiC.202305") + R"(",
        "mgmt-ip": "10.0.0.1", "capability": )" + caps + R"(}},
      "port": )" + portObj + "}}";
}

// A device's `lldpctl -f json`: one interface prints as an object, several as a list.
std::string lldpJson(const std::vector<std::string>& entries) {
    if (entries.size() == 1) return "{\n  \"lldp\": {\n    \"interface\": " + entries[0] + "\n  }\n}\n";
    std::string s = "{\n  \"lldp\": {\n    \"interface\": [\n";
    for (std::size_t i = 0; i < entries.size(); ++i) s += (i ? ",\n" : "") + entries[i];
    return s + "\n    ]\n  }\n}\n";
}

std::string ethtoolCapture(long t, std::uint64_t bytes, std::uint64_t pause) {
    return std::to_string(t) + "\nethtool -S ens1f0np0\nNIC statistics:\n     rx_packets: 1\n" +
           "     rx_bytes_phy: " + std::to_string(bytes) + "\n     tx_bytes_phy: " + std::to_string(bytes * 2) +
           "\n     rx_prio3_pause: " + std::to_string(pause) + "\n     tx_prio3_pause: 0\n" +
           "     rx_prio3_pause_duration: " + std::to_string(pause * 10) + "\n";
}

std::string pfcCapture(long t, const std::vector<std::string>& ports, int rx3) {
    std::string s = std::to_string(t) + "\n";
    for (const char* dir : {"Rx", "Tx"}) {
        s += std::string("    Port ") + dir + "    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
             "-----------  ------  ------  ------  ------  ------  ------  ------  ------\n";
        for (const auto& p : ports) s += "  " + p + "       0       0       0  " + std::to_string(rx3) + "       0       0       0       0\n";
        s += "\n";
    }
    return s;
}

std::string portstatCapture(long t, const std::vector<std::string>& ports, const std::string& ok) {
    std::string s = std::to_string(t) + "\n"
        "     IFACE    STATE    RX_OK     RX_BPS    RX_UTIL    RX_ERR    RX_DRP    RX_OVR    TX_OK     TX_BPS    TX_UTIL    TX_ERR    TX_DRP    TX_OVR\n"
        "----------  -------  -------  ---------  ---------  --------  --------  --------  -------  ---------  ---------  --------  --------  --------\n";
    for (const auto& p : ports)
        s += " " + p + "        U  " + ok + "  44.65 MB/s      0.87%         0         0         0  " + ok +
             "   9.99 B/s      0.00%         0       N/A         0\n";
    return s + "\n";
}

void write(const QString& path, const std::string& text) { std::ofstream(path.toStdString(), std::ios::binary) << text; }

} // namespace

class TestRoceFabricE2e : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void leafSpineWithCounters() {
        const auto cables = leafSpine(2, 2, 2);
        std::map<std::string, std::vector<std::string>> lldp;            // device -> its neighbour entries
        std::map<std::string, std::vector<std::string>> ports;           // device -> its cabled ports
        for (const auto& c : cables) {
            lldp[c.a].push_back(neighbour(c.ap, c.b, c.bp));
            lldp[c.b].push_back(neighbour(c.bp, c.a, c.ap));
            ports[c.a].push_back(c.ap);
            ports[c.b].push_back(c.bp);
        }
        QTemporaryDir dir;
        const QString topo = dir.filePath(QStringLiteral("lldp")), counters = dir.filePath(QStringLiteral("counters"));
        QVERIFY(QDir().mkpath(topo) && QDir().mkpath(counters));
        for (const auto& [dev, entries] : lldp) write(topo + "/" + QString::fromStdString(dev) + ".json", lldpJson(entries));
        std::size_t expectedSeries = 0;
        int seed = 0;  // distinct values per device: identical files would be one import (same SHA-256)
        for (const auto& [dev, ps] : ports) {
            const QString base = counters + "/" + QString::fromStdString(dev);
            ++seed;
            if (isHost(dev)) {
                write(base + ".ethtool.txt", ethtoolCapture(1700000000, 1000u * seed, 5) + ethtoolCapture(1700000060, 9000u * seed, 50));
                expectedSeries += 5;  // rx/tx bytes, rx/tx prio3 pause, rx prio3 pause duration
            } else {
                write(base + ".pfc.txt", pfcCapture(1700000000, ps, seed) + pfcCapture(1700000060, ps, 2 * seed));
                write(base + ".portstat.txt", portstatCapture(1700000000, ps, std::to_string(seed) + ",000") +
                                                  portstatCapture(1700000060, ps, std::to_string(seed) + ",500"));
                expectedSeries += ps.size() * (16 + 7);  // 8 priorities x rx/tx; 8 counters but TX_DRP is N/A
            }
        }
        // A capture from a host that is not in the fabric: kept, and listed as unmapped.
        write(counters + "/gpu99.ethtool.txt", ethtoolCapture(1700000000, 1, 1));
        // gpu1's RDMA device counters: no capture says mlx5_0 is ens1f0np0, so they stay off the port.
        write(counters + "/gpu1-rdma.csv", "timestamp,node,port,counter,value\n1700000000,gpu1,mlx5_0/1,np_cnp_sent,5\n");

        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto t = runner.run({topo.toStdString()}, {});
        QVERIFY(!t.anyFailed());
        const auto c = runner.run({counters.toStdString()}, {});
        QVERIFY(!c.anyFailed());
        std::map<std::string, int> formats;
        for (const auto& f : c.files) ++formats[f.format];
        QCOMPARE(formats["ethtool"], 5);
        QCOMPARE(formats["sonic-pfc"], 4);
        QCOMPARE(formats["sonic-portstat"], 4);
        QCOMPARE(formats["csv"], 1);

        // Every cable is one link, seen from both ends, between the right ports.
        const Fabric f = store.loadFabric(store.latestSnapshot()->id);
        QCOMPARE(f.links.size(), cables.size());
        std::set<std::string> want, got;
        for (const auto& cb : cables) want.insert(std::min(cb.a + ":" + cb.ap, cb.b + ":" + cb.bp) + " " +
                                                  std::max(cb.a + ":" + cb.ap, cb.b + ":" + cb.bp));
        for (const Link& l : f.links) {
            QVERIFY(l.seenFromBothEnds);
            const auto a = f.node(f.port(l.a).node).systemName + ":" + f.port(l.a).name;
            const auto b = f.node(f.port(l.b).node).systemName + ":" + f.port(l.b).name;
            got.insert(std::min(a, b) + " " + std::max(a, b));
        }
        QCOMPARE(got, want);
        QCOMPARE(f.count(NodeType::Switch), std::size_t{4});
        QCOMPARE(f.count(NodeType::Ca), std::size_t{4});

        // Every series of a fabric device names a port that device has; the stray host is unmapped.
        std::set<std::string> fabricPorts;
        for (const Port& p : f.ports) fabricPorts.insert(f.node(p.node).systemName + ":" + p.name);
        std::size_t mapped = 0, strayHost = 0;
        for (const auto& s : store.series()) {
            if (s.nodeRef == "gpu99") {
                QCOMPARE(s.deviceId, std::int64_t{0});
                ++strayHost;
            } else if (s.port != "mlx5_0/1") {
                QVERIFY2(fabricPorts.count(s.nodeRef + ":" + s.port), (s.nodeRef + ":" + s.port).c_str());
                ++mapped;
            }
        }
        QCOMPARE(mapped, expectedSeries);
        QCOMPARE(strayHost, std::size_t{5});
        const auto info = store.info();
        QCOMPARE(info.links, cables.size());
        QCOMPARE(info.unmappedSeries, strayHost);
        // The list `info` prints: exactly the stray host's series and the RDMA counter, with why.
        const auto list = unmappedSeries(store);
        QCOMPARE(list.size(), strayHost + 1);
        for (const auto& u : list) {
            if (u.node == "gpu99") QCOMPARE(u.reason, std::string("node"));
            else QCOMPARE(u.node + " " + u.port + " " + u.counter + " " + u.reason, std::string("gpu1 mlx5_0/1 cnp_sent port"));
        }
    }
};

QTEST_GUILESS_MAIN(TestRoceFabricE2e)
#include "tst_roce_fabric_e2e.moc"
