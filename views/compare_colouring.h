#pragma once
// Compare mode (issue #19, File > Compare…): what the fabric view shows of a comparison of a good
// run and a bad one (core/compare/compare.h). The shown store's links are coloured by the change
// of their p95 utilisation, bad minus good in percentage points, on a diverging scale (blue: less
// load, grey: unchanged, red: more load); topology changes (removed links, links at another
// width or speed) are marked over the graph. The values are the core's own: a link with a load
// change takes its p95 figures, a link with counters and no load change is within the compare
// thresholds and drawn as unchanged (0), a link without counters is "no data".
#include "core/compare/compare.h"
#include "core/compare/compare_colours.h"
#include "views/finding_focus.h"

#include <QRgb>
#include <QString>

#include <memory>
#include <vector>

class QPainter;
class QRect;

namespace fabscope {

class FabricView;
struct StoreSnapshot;

// What File > Compare… asks for: the good and the bad side, each a store and a window.
struct CompareRequest {
    std::string goodStore, badStore;
    CompareWindow goodWindow, badWindow;
};

// A finished comparison: the core's report and each side's store as the views draw it (the same
// snapshot on both sides when one store's two windows were compared).
struct CompareResult {
    CompareRequest request;
    CompareReport report;
    std::shared_ptr<const StoreSnapshot> good, bad;
    bool shownIsBad = true;  // the window's fabric is the bad side's store (else the good one's)
};

// "good run.sqlite 2024-05-01 10:00–10:30 UTC"
QString compareSideLabel(const CompareSide& side);
// "Compare: good … vs bad …"
QString compareTitle(const CompareReport& report);
// Where a change is on the shown fabric: its link(s) and nodes (a removed link: its two nodes).
FindingFocus focusOfChange(const StoreSnapshot& shown, const Change& change);

// Also the base of what-if's prediction colouring (views/whatif_colouring.h): the same diverging
// scale and marks, with its own titles, tooltips and legend words.
class CompareColouring {
public:
    CompareColouring(std::shared_ptr<const CompareResult> result, const StoreSnapshot& shown);
    virtual ~CompareColouring() = default;

    [[nodiscard]] const CompareResult& result() const { return *result_; }
    // Δ p95 utilisation of a link of the shown fabric (bad − good, percentage points); NaN: no data.
    [[nodiscard]] float delta(std::size_t link) const;
    // Colour of a Δ: blue below zero, neutral grey at zero, red above; pale for "no data".
    [[nodiscard]] QRgb rgb(float delta) const;
    [[nodiscard]] static QRgb neutral() { return qRgb(168, 168, 168); }
    [[nodiscard]] static QRgb noData() { return qRgb(226, 226, 232); }
    // One convention with the comparison report (core/compare/compare_colours.h): red more, blue less.
    [[nodiscard]] static QRgb more() { return rgbOf(comparergb::kMoreLoad); }   // the scale's + end
    [[nodiscard]] static QRgb less() { return rgbOf(comparergb::kLessLoad); }   // the scale's − end
    [[nodiscard]] static QRgb removed() { return rgbOf(comparergb::kRemoved); }  // a removed link's dashes
    [[nodiscard]] static QRgb rgbOf(comparergb::Rgb c) { return qRgb(c.r, c.g, c.b); }
    [[nodiscard]] double range() const { return range_; }  // the scale runs −range..+range points
    [[nodiscard]] virtual QString title() const;          // "Compare: good … vs bad …"
    [[nodiscard]] virtual QString header() const;         // the same, short, for the fabric's header line
    [[nodiscard]] virtual QString hint() const;           // the fabric's third header line: how to leave
    [[nodiscard]] static QString legendTitle();           // with its unit
    [[nodiscard]] virtual QString scaleTitle() const { return legendTitle(); }  // the legend's title (a prediction's differs)
    [[nodiscard]] static QString format(float delta);     // "+23.5 pp", "no data"
    // The line a link's tooltip gets: Δ with both sides' p95 figures.
    [[nodiscard]] virtual QString tooltip(std::size_t link) const;
    [[nodiscard]] int legendHeight() const;
    void paintLegend(QPainter& p, const QRect& area) const;

    struct Mark {
        int nodeA = -1, nodeB = -1;  // the link's ends on the shown fabric
        int link = -1;               // the shown link, -1 when it is not in the shown topology
        bool removed = false;        // in the good topology, gone from the bad one
        QString label;               // "removed", "1x HDR", "added", "moved"
    };
    [[nodiscard]] const std::vector<Mark>& marks() const { return marks_; }
    // Draws the topology marks over the fabric view's graph.
    void paintMarks(QPainter& p, const FabricView& view) const;

protected:
    CompareColouring() = default;  // a subclass fills delta_, marks_ and range_
    [[nodiscard]] virtual QString removedLabel() const;  // the dashed swatch's word

    std::shared_ptr<const CompareResult> result_;
    std::vector<float> delta_, goodP95_, badP95_;  // per shown link; p95 in % (NaN: not listed)
    std::vector<Mark> marks_;
    double range_ = 20;
};

} // namespace fabscope
