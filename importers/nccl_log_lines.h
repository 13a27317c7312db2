#pragma once
// The pieces of one NCCL_DEBUG=INFO line that the NCCL log importer reads. Kept apart from the
// importer so each line shape is parsed (and tested) in one place. Shapes: docs/FORMATS.md.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabscope::nccl {

// `host:pid:tid [dev] NCCL INFO text`, possibly behind a launcher prefix (`[1,10]<stdout>:`,
// `0: `, a timestamp): the process that wrote the line and what it says.
struct Line {
    std::string host;
    std::string pid;
    int dev = -1;
    std::string_view text;  // after "NCCL INFO "
};
std::optional<Line> splitLine(std::string_view line);

std::optional<int> toInt(std::string_view s);

// The integer after `key ` in "comm 0x.. rank 3 nranks 8 cudaDev 3 ..."; `word` gets the text.
std::optional<int> field(std::string_view text, std::string_view key, std::string_view* word = nullptr);

// The word after `key ` ("commId 0xfc11.." -> "0xfc11.."), empty when absent.
std::string_view wordAfter(std::string_view text, std::string_view key);

// A communicator's init line, old and new NCCL:
//   "comm 0x.. rank R nranks N cudaDev D busId B - Init COMPLETE"                 (<= 2.18)
//   "ncclCommInitRank comm 0x.. rank R nranks N cudaDev D ... commId 0x.. - Init START|COMPLETE"
struct InitLine {
    bool complete = false;  // COMPLETE, else START
    std::string commId;     // empty before NCCL 2.19
};
std::optional<InitLine> initLine(std::string_view text);

// "Channel 00/08 :    0   1   2   3": channel 0 of 8, the ring order.
struct Ring {
    int channel = 0;
    std::vector<int> order;
};
std::optional<Ring> ringLine(std::string_view text);

// "Trees [0] 5/-1/-1->4->0 [1] ...": per channel, rank 4's parent is 0 and its children 5.
struct TreeLink {
    int channel = 0;
    int rank = 0;
    int parent = -1;
    std::vector<int> children;
};
std::vector<TreeLink> treesLine(std::string_view text);

// "Channel 00/0 : 0[0] -> 4[0] [send] via NET/IB/2/GDRDMA": a connection and its transport.
struct Connection {
    int channel = 0;
    int src = 0, dst = 0;
    bool send = true;          // [send]; [receive] lines name the same edge from the other end
    std::string transport;     // "NET/IB/GDRDMA", "P2P/CUMEM", "SHM": the device index dropped
    std::optional<int> netDevice;  // k of NET/<plugin>/k
};
std::optional<Connection> connectionLine(std::string_view text);

// "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB ...": the NICs by index; nullopt
// for other lines, an empty list when an entry cannot be read.
std::optional<std::vector<std::string>> nicList(std::string_view text);

}  // namespace fabscope::nccl
