#pragma once
// A port as findings and reports name it: by node description, GUID and port name, so that it
// stays meaningful outside the store it came from.
#include <string>

namespace fabscope {

struct PortRef {
    std::string node;  // node description as the fabric reports it
    std::string guid;  // "0x..."; empty when unknown (omitted from JSON)
    std::string port;  // "33" (written as a JSON number) or "Ethernet8"
    bool operator==(const PortRef&) const = default;
};

} // namespace fabscope
