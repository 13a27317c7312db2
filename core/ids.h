#pragma once
// Typed indices so a NodeId can never be passed where a PortId is expected.
#include <cstdint>
#include <functional>
#include <limits>

namespace fabscope {

template <typename Tag> class Id {
public:
    using value_type = std::uint32_t;
    static constexpr value_type kInvalid = std::numeric_limits<value_type>::max();

    constexpr Id() = default;
    constexpr explicit Id(value_type v) : value_(v) {}
    constexpr explicit Id(std::size_t v) : value_(static_cast<value_type>(v)) {}

    [[nodiscard]] constexpr value_type value() const { return value_; }
    [[nodiscard]] constexpr bool valid() const { return value_ != kInvalid; }
    constexpr auto operator<=>(const Id&) const = default;

private:
    value_type value_ = kInvalid;
};

using NodeId = Id<struct NodeTag>;
using PortId = Id<struct PortTag>;
using LinkId = Id<struct LinkTag>;
using SeriesId = Id<struct SeriesTag>;

} // namespace fabscope

template <typename Tag> struct std::hash<fabscope::Id<Tag>> {
    std::size_t operator()(const fabscope::Id<Tag>& id) const noexcept { return id.value(); }
};
