#pragma once
// Steady uplink load on compare_fixture.h's good fabric (4 leaves x 3 spines, 4xHDR) and the
// two-rank job of the what-if tests, one owner for tst_view_whatif, tst_report_stress,
// tst_cli_whatif and tst_whatif_lft.
#include "compare_fixture.h"

#include <fstream>

namespace cmpfix {

// xmit_bytes rows of both directions of every uplink, the same utilisation in each of
// `intervals` intervals `step` s apart: leaf l's direction up to spine s at up(l, s), every
// spine's direction down at `down`.
template <class Up>
std::string steadyUplinks(Up up, double down, int intervals = 30, int step = 10) {
    std::ostringstream out;
    out.precision(17);
    for (int l = 1; l <= 4; ++l)
        for (int s = 1; s <= 3; ++s)
            for (int dir = 0; dir < 2; ++dir) {
                const double u = dir == 0 ? up(l, s) : down;
                out << atest::rows(dir == 0 ? "leaf0" + std::to_string(l) : "spine0" + std::to_string(s), dir == 0 ? 19 + s : l,
                                   "xmit_bytes", atest::hdrBytes(std::vector<double>(static_cast<std::size_t>(intervals), u)), step);
            }
    return out.str();
}

// Writes the job file: rank 0 on gpu01 (leaf01), rank 1 on gpu03 (leaf02); returns its path.
inline std::string twoRankJob(atest::Stores& stores) {
    const std::string job = stores.path("job.csv");
    std::ofstream(job) << "rank,host,device\n0,gpu01,mlx5_0\n1,gpu03,mlx5_0\n";
    return job;
}

} // namespace cmpfix
