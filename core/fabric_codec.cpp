#include "core/fabric_codec.h"

#include <cstring>

namespace fabscope {
namespace {

constexpr char kMagic[4] = {'F', 'S', 'F', static_cast<char>(kFabricBlobFormat)};
constexpr std::int32_t kNoWidth = -1;

class Writer {
public:
    void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
    void u32(std::uint32_t v) { raw(&v, sizeof v); }
    void i32(std::int32_t v) { raw(&v, sizeof v); }
    void u64(std::uint64_t v) { raw(&v, sizeof v); }
    void str(const std::string& s) {
        u32(static_cast<std::uint32_t>(s.size()));
        out_.append(s);
    }
    void raw(const void* p, std::size_t n) { out_.append(static_cast<const char*>(p), n); }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

// Every read checks the bytes left; a short or lying blob turns into failed(), never a crash.
class Reader {
public:
    explicit Reader(std::string_view in) : in_(in) {}
    [[nodiscard]] bool failed() const { return failed_; }
    [[nodiscard]] bool atEnd() const { return pos_ == in_.size(); }
    std::uint8_t u8() {
        std::uint8_t v = 0;
        raw(&v, 1);
        return v;
    }
    std::uint32_t u32() {
        std::uint32_t v = 0;
        raw(&v, sizeof v);
        return v;
    }
    std::int32_t i32() {
        std::int32_t v = 0;
        raw(&v, sizeof v);
        return v;
    }
    std::uint64_t u64() {
        std::uint64_t v = 0;
        raw(&v, sizeof v);
        return v;
    }
    std::string str() {
        const std::uint32_t n = u32();
        if (failed_ || n > in_.size() - pos_) return fail(), std::string();
        std::string s(in_.substr(pos_, n));
        pos_ += n;
        return s;
    }
    void skipStr() {
        const std::uint32_t n = u32();
        if (failed_ || n > in_.size() - pos_) return fail();
        pos_ += n;
    }
    void skip(std::size_t n) {
        if (failed_ || n > in_.size() - pos_) return fail();
        pos_ += n;
    }
    // Counts are checked against the bytes left (each item takes at least `minBytes`), so a
    // damaged count cannot make us reserve gigabytes.
    std::size_t count(std::size_t minBytes) {
        const std::uint32_t n = u32();
        if (failed_ || n > (in_.size() - pos_) / minBytes) return fail(), 0;
        return n;
    }

private:
    void fail() { failed_ = true; }
    void raw(void* p, std::size_t n) {
        if (failed_ || n > in_.size() - pos_) return fail();
        std::memcpy(p, in_.data() + pos_, n);
        pos_ += n;
    }
    std::string_view in_;
    std::size_t pos_ = 0;
    bool failed_ = false;
};

} // namespace

std::string encodeFabric(const Fabric& f) {
    Writer w;
    w.raw(kMagic, sizeof kMagic);
    w.u32(static_cast<std::uint32_t>(f.nodes.size()));
    for (const Node& n : f.nodes) {
        w.u8(static_cast<std::uint8_t>(n.type));
        w.i32(n.numPorts);
        w.i32(n.lid);
        w.str(n.guid);
        w.str(n.description);
        w.str(n.systemName);
    }
    w.u32(static_cast<std::uint32_t>(f.ports.size()));
    for (const Port& p : f.ports) {
        w.u32(p.node.value());
        w.i32(p.number);
        w.i32(p.lid);
        w.i32(p.width ? *p.width : kNoWidth);
        w.u64(p.capacityBps);
        w.u8(static_cast<std::uint8_t>(p.state));
        w.str(p.name);
        w.str(p.portGuid);
        w.str(p.speed);
    }
    w.u32(static_cast<std::uint32_t>(f.links.size()));
    for (const Link& l : f.links) {
        w.u32(l.a.value());
        w.u32(l.b.value());
        w.i32(l.width ? *l.width : kNoWidth);
        w.u64(l.capacityBps);
        w.u8(l.seenFromBothEnds ? 1 : 0);
        w.str(l.speed);
    }
    return w.take();
}

std::optional<Fabric> decodeFabric(std::string_view bytes) {
    if (bytes.size() < sizeof kMagic || bytes.substr(0, sizeof kMagic) != std::string_view(kMagic, sizeof kMagic))
        return std::nullopt;
    Reader r(bytes.substr(sizeof kMagic));
    Fabric f;
    f.nodes.resize(r.count(21));
    for (Node& n : f.nodes) {
        const auto type = r.u8();
        if (type > static_cast<std::uint8_t>(NodeType::Router)) return std::nullopt;
        n.type = static_cast<NodeType>(type);
        n.numPorts = r.i32();
        n.lid = r.i32();
        n.guid = r.str();
        n.description = r.str();
        n.systemName = r.str();
    }
    f.ports.resize(r.count(37));
    for (Port& p : f.ports) {
        const std::uint32_t node = r.u32();
        if (node >= f.nodes.size()) return std::nullopt;
        p.node = NodeId(node);
        p.number = r.i32();
        p.lid = r.i32();
        if (const auto w = r.i32(); w != kNoWidth) p.width = w;
        p.capacityBps = r.u64();
        const auto state = r.u8();
        if (state > static_cast<std::uint8_t>(PortState::Active)) return std::nullopt;
        p.state = static_cast<PortState>(state);
        p.name = r.str();
        p.portGuid = r.str();
        p.speed = r.str();
    }
    f.links.resize(r.count(25));
    for (Link& l : f.links) {
        const std::uint32_t a = r.u32(), b = r.u32();
        if (a >= f.ports.size() || b >= f.ports.size()) return std::nullopt;
        l.a = PortId(a);
        l.b = PortId(b);
        if (const auto w = r.i32(); w != kNoWidth) l.width = w;
        l.capacityBps = r.u64();
        l.seenFromBothEnds = r.u8() != 0;
        l.speed = r.str();
    }
    if (r.failed() || !r.atEnd()) return std::nullopt;
    return f;
}

// The same walk and checks as decodeFabric, keeping only counts.
std::optional<FabricCounts> countFabric(std::string_view bytes) {
    if (bytes.size() < sizeof kMagic || bytes.substr(0, sizeof kMagic) != std::string_view(kMagic, sizeof kMagic))
        return std::nullopt;
    Reader r(bytes.substr(sizeof kMagic));
    FabricCounts c;
    const std::size_t nodes = r.count(21);
    for (std::size_t i = 0; i < nodes; ++i) {
        switch (r.u8()) {
        case static_cast<std::uint8_t>(NodeType::Switch): ++c.switches; break;
        case static_cast<std::uint8_t>(NodeType::Ca): ++c.cas; break;
        case static_cast<std::uint8_t>(NodeType::Router): ++c.routers; break;
        default: return std::nullopt;
        }
        r.skip(8);  // numPorts, lid
        r.skipStr();
        r.skipStr();
        r.skipStr();
    }
    const std::size_t ports = r.count(37);
    for (std::size_t i = 0; i < ports; ++i) {
        if (r.u32() >= nodes) return std::nullopt;
        r.skip(20);  // number, lid, width, capacityBps
        const auto state = r.u8();
        if (state > static_cast<std::uint8_t>(PortState::Active)) return std::nullopt;
        if (state != static_cast<std::uint8_t>(PortState::Down)) ++c.ports;
        r.skipStr();
        r.skipStr();
        r.skipStr();
    }
    c.links = r.count(25);
    for (std::size_t i = 0; i < c.links; ++i) {
        const std::uint32_t a = r.u32(), b = r.u32();
        if (a >= ports || b >= ports) return std::nullopt;
        r.skip(13);  // width, capacityBps, seenFromBothEnds
        r.skipStr();
    }
    if (r.failed() || !r.atEnd()) return std::nullopt;
    return c;
}

} // namespace fabscope
