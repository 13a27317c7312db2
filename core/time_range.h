#pragma once
// The time cursor and time ranges every view shares (docs/ARCHITECTURE.md, conventions). Plain values, no Qt: one owner
// in the GUI (views/time_controller.h) holds them and broadcasts changes.
#include <algorithm>
#include <cmath>
#include <optional>

namespace fabscope {

// A closed interval of UNIX seconds. Empty (invalid) when end < start.
struct TimeRange {
    double start = 0;
    double end = -1;

    [[nodiscard]] bool valid() const { return end >= start; }
    [[nodiscard]] double duration() const { return valid() ? end - start : 0; }
    [[nodiscard]] bool contains(double t) const { return valid() && t >= start && t <= end; }
    [[nodiscard]] double clamp(double t) const { return valid() ? std::clamp(t, start, end) : t; }
    // Fraction 0..1 of t within the range (0 for an empty or zero-length range).
    [[nodiscard]] double fraction(double t) const {
        return duration() > 0 ? (clamp(t) - start) / duration() : 0.0;
    }
    [[nodiscard]] double at(double fraction) const { return start + std::clamp(fraction, 0.0, 1.0) * duration(); }
    // The overlap of two ranges (invalid when they do not meet).
    [[nodiscard]] TimeRange intersected(const TimeRange& o) const {
        return {std::max(start, o.start), std::min(end, o.end)};
    }
    // A range from two times in any order.
    static TimeRange between(double a, double b) { return {std::min(a, b), std::max(a, b)}; }
    bool operator==(const TimeRange&) const = default;
};

// The cursor: one instant within the store's span, plus the optional selected range that becomes
// the analysis window.
struct TimeCursor {
    TimeRange span;                      // the store's sample span
    double time = 0;                     // always within span when span is valid
    std::optional<TimeRange> selection;  // within span

    // Moves the cursor, clamped to the span; returns true when it changed.
    bool moveTo(double t) {
        const double c = span.clamp(t);
        if (c == time) return false;
        time = c;
        return true;
    }
    bool operator==(const TimeCursor&) const = default;
};

} // namespace fabscope
