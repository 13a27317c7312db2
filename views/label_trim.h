#pragma once
// Labels that keep what differs. On a large fabric the switches of one row share most of their
// names ("MF0;SLG04-16:MQM8700/U1", "MF0;SLG04-15:MQM8700/U1", ...), so a label elided in the
// middle reads the same for all of them. trimCommonAffixes drops the start and the end that every
// label of a row shares, cut where a word ends so no word is split, and keeps the middle:
// "SLG04-16", "SLG04-15". Plain strings (UTF-8; only ASCII separators are cut at), no Qt.
#include <string>
#include <vector>

namespace fabscope {

enum class LabelCut {
    Words,  // cut after or before ' ', ';', ':', '/', ',', '|', '#', '(' and ')' only
    Parts,  // also at '-', '_', '.' ("sel-spine-001" ... "sel-spine-020" -> "001" ... "020")
};

// The labels without the prefix and suffix they all share, each cut at a separator of `cut`.
// Fewer than three labels, or labels all alike, come back unchanged; a label that would be left
// empty is kept whole.
std::vector<std::string> trimCommonAffixes(const std::vector<std::string>& labels, LabelCut cut = LabelCut::Words);

} // namespace fabscope
