#pragma once
// What a port's physical layer reported when ibdiagnet read it (`ibdiagnet --get_phy_info`, its
// `ibdiagnet2.net_dump_ext` file): the forward error correction in use and the bit error rates
// before FEC (raw), after FEC (effective) and after FEC and retransmission (symbol), with the
// error counts behind the last two. Stored per topology snapshot (schema v16, table port_ber);
// judged by the error_link detector (core/analysis/ber_link.cpp), shown in the inspector.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

class Store;

struct PortBer {
    std::string nodeGuid;  // the port's node (for an HCA the file may name the port GUID; the store maps it)
    std::string port;      // "1": the InfiniBand port number, as the fabric names it
    std::string fecMode;   // "RS_FEC_544_514", "NO-FEC"; "" when not reported (N/A)
    // Errors per bit, 0..1; none where the cell was empty (ibdiagnet could not read the port's PHY).
    std::optional<double> rawBer, effectiveBer, symbolBer;
    std::optional<std::int64_t> symbolErrors, effectiveErrors;  // counts behind the rates, when given
    std::int64_t line = 0;  // the port's row in the file (provenance)

    [[nodiscard]] bool hasRates() const { return rawBer || effectiveBer || symbolBer; }
};

// Writes the readings of one snapshot inside the caller's transaction; a port is found by its
// node's GUID or, failing that, by its port GUID (HCA ports). Returns how many were written; the
// rest name ports the snapshot does not hold.
std::size_t writePortBer(Store& store, std::int64_t snapshotId, const std::vector<PortBer>& readings);
// The readings of a snapshot, by node GUID then port; empty for a store before schema 16.
std::vector<PortBer> loadPortBer(const Store& store, std::int64_t snapshotId);
// True when some port of the snapshot has a bit error rate: ibdiagnet read the PHY (a file whose
// rate cells are all empty, no port's PHY read, counts as none).
bool hasPortBerRates(const Store& store, std::int64_t snapshotId);

} // namespace fabscope
