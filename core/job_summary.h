#pragma once
// What a user checks first about an imported job: its size, hosts, NCCL version, how many ring
// and tree channels it set up and over which transports. Shared by `info` and the views.
#include "core/store/store.h"

#include <map>
#include <string>
#include <vector>

namespace fabscope {

struct JobSummary {
    std::string name, file, ncclVersion;
    int nranks = 0;                     // communicator size; 0 when the input does not say
    std::size_t ranksSeen = 0;          // ranks with a host
    std::vector<std::string> hosts;     // distinct, in rank order
    std::size_t ringChannels = 0, treeChannels = 0;
    std::map<std::string, std::size_t> transports;  // "NET/IB/GDRDMA" -> connections
};

JobSummary summarise(const StoredJob& job);

}  // namespace fabscope
