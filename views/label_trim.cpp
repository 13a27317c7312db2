#include "views/label_trim.h"

#include <algorithm>
#include <string_view>

namespace fabscope {
namespace {

bool isSeparator(char c, LabelCut cut) {
    constexpr std::string_view words = " \t;:/,|#()";
    constexpr std::string_view parts = "-_.";
    return words.find(c) != std::string_view::npos || (cut == LabelCut::Parts && parts.find(c) != std::string_view::npos);
}

} // namespace

std::vector<std::string> trimCommonAffixes(const std::vector<std::string>& labels, LabelCut cut) {
    if (labels.size() < 3) return labels;
    const std::string& first = labels.front();
    if (std::all_of(labels.begin(), labels.end(), [&](const std::string& s) { return s == first; })) return labels;

    // The shared start, backed off to just after a separator.
    std::size_t prefix = first.size();
    for (const std::string& s : labels) {
        const std::size_t n = std::min(prefix, s.size());
        prefix = static_cast<std::size_t>(std::mismatch(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(n), first.begin()).first - s.begin());
    }
    while (prefix > 0 && !isSeparator(first[prefix - 1], cut)) --prefix;

    // The shared end of what follows the prefix, backed off to start at a separator.
    std::size_t suffix = first.size() - prefix;
    for (const std::string& s : labels) {
        const std::size_t n = std::min(suffix, s.size() - prefix);
        suffix = static_cast<std::size_t>(std::mismatch(s.rbegin(), s.rbegin() + static_cast<std::ptrdiff_t>(n), first.rbegin()).first - s.rbegin());
    }
    while (suffix > 0 && !isSeparator(first[first.size() - suffix], cut)) --suffix;

    std::vector<std::string> out;
    out.reserve(labels.size());
    for (const std::string& s : labels) {
        // The middle (prefix + suffix <= every label's size), without separators at its ends.
        std::size_t b = prefix, e = s.size() - suffix;
        while (b < e && isSeparator(s[b], cut)) ++b;
        while (e > b && isSeparator(s[e - 1], cut)) --e;
        out.push_back(e > b ? s.substr(b, e - b) : s);
    }
    return out;
}

} // namespace fabscope
