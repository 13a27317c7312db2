// Fuzz target: a store's fabric blob (schema v5) comes from a file someone handed over. Decoding
// must return a fabric whose every index is in range, or nothing; never crash or over-read. A
// decoded fabric re-encodes to bytes that decode to the same encoding.
#include "core/fabric_codec.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const auto f = fabscope::decodeFabric(bytes);
    if (!f) return 0;
    for (const auto& p : f->ports)
        if (p.node.value() >= f->nodes.size()) __builtin_trap();
    for (const auto& l : f->links)
        if (l.a.value() >= f->ports.size() || l.b.value() >= f->ports.size()) __builtin_trap();
    const std::string again = fabscope::encodeFabric(*f);
    const auto f2 = fabscope::decodeFabric(again);
    if (!f2 || fabscope::encodeFabric(*f2) != again) __builtin_trap();
    return 0;
}
