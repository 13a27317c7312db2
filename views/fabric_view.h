#pragma once
// The fabric graph: a fat-tree in tiers, links coloured by a metric at the cursor time.
// Drawing follows docs/ARCHITECTURE.md: visible links are rasterised once into a link-id buffer (each pixel
// holds the id of the edge drawn there) on zoom/pan/resize; a cursor step only recolours that
// buffer through a per-edge colour table, whatever the link count. Hosts fold into one group per
// leaf when they would be closer than a few pixels (level of detail). Zoom and pan are horizontal:
// a fat-tree is wide and a few tiers tall, so the tiers always fit the height.
#include "core/analysis/analysis_config.h"
#include "core/timeseries/link_series.h"
#include "views/colour_scale.h"
#include "views/fabric_layout.h"
#include "views/fabric_raster.h"
#include "views/finding_focus.h"

#include <QImage>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QMenu;
class QPainter;

namespace fabscope {

class BackgroundJob;
class CompareColouring;

struct StoreSnapshot;

class FabricView : public QWidget {
    Q_OBJECT
public:
    explicit FabricView(QWidget* parent = nullptr);
    ~FabricView() override;

    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    // The shown fabric again with its link rates loaded (same nodes, ports and links): layout,
    // zoom, selection and overlay stay; only the colours change.
    void setRates(std::shared_ptr<const StoreSnapshot> snapshot);
    [[nodiscard]] LinkMetric metric() const { return scale_.metric(); }
    [[nodiscard]] const ColourScale& colourScale() const { return scale_; }
    [[nodiscard]] int selectedNode() const { return selectedNode_; }
    [[nodiscard]] int selectedLink() const { return selectedLink_; }
    [[nodiscard]] bool hostsFolded() const { return folded_; }
    [[nodiscard]] double zoom() const;  // 1 = fit
    [[nodiscard]] LayoutKind layoutKind() const { return layoutKind_; }  // as asked (Auto: detected)
    [[nodiscard]] const FabricLayout* currentLayout() const { return layout_.get(); }
    // The finding drawn over the graph: its path, origin and spread (empty when none).
    [[nodiscard]] const FindingFocus& findingOverlay() const { return overlay_; }
    // Compare mode (views/compare_colouring.h): links coloured by their change (Δ p95 utilisation,
    // bad − good) with the topology changes marked, instead of the metric at the cursor; null
    // goes back to the metric. A new store leaves it. What-if's prediction uses it too
    // (views/whatif_colouring.h: Δ after − before, failed links dashed).
    void setCompareColouring(std::shared_ptr<const CompareColouring> colouring);
    [[nodiscard]] const CompareColouring* compareColouring() const { return compare_.get(); }

    // Port modules to look at (ibdiagnet2.cables: flags set, near their alarm temperature, receive
    // lanes apart; core/analysis/optic_evidence.h with the shared thresholds), each marked with an
    // amber triangle on its link next to its node, and ports whose bit error rate is above the
    // error_link threshold (net_dump_ext; core/analysis/ber_rule.h) with a red diamond further along
    // (fabric_view_modules.cpp).
    struct ModuleMark {
        std::uint32_t node = 0;  // whose port holds the module, or measured the rate
        int link = -1;           // the port's link, -1 when it has none
        QString text;            // "leaf02 p9 module: flag Latched TX / RX LOL Indicator 0x0f"
        bool bitErrors = false;  // a bit error rate above its threshold, not a module
    };
    // The thresholds the marks follow: the analysis' own (Analysis > Thresholds).
    void setMarkConfig(const AnalysisConfig& config);
    [[nodiscard]] const std::vector<ModuleMark>& moduleMarks() const { return moduleMarks_; }
    // What the header says of the marks: "▲ 2 modules to check · ◆ 1 port above the bit error rate
    // threshold"; "" when none.
    [[nodiscard]] QString moduleMarksNote() const;
    // Nodes a tool reported errors about (ibswinfo: a power supply or fan not OK; ibdiagnet's
    // ERRORS_ rows), each marked with a red square at the node's top right.
    struct NodeErrorMark {
        std::uint32_t node = 0;
        QString text;  // "ibswinfo: PSU1 DC power ERROR"
    };
    [[nodiscard]] const std::vector<NodeErrorMark>& nodeErrorMarks() const { return errorMarks_; }
    [[nodiscard]] std::optional<QPointF> nodeErrorMarkPosition(const NodeErrorMark& mark) const;
    // Where a mark is drawn (widget coordinates); nullopt when neither end is on screen.
    [[nodiscard]] std::optional<QPointF> moduleMarkPosition(const ModuleMark& mark) const;
    // Where the fabric differs from the stored cabling plan (StoreSnapshot::planChecks,
    // fabric_view_plan.cpp): a planned cable not cabled is a red dashed line between its two
    // nodes; a cable off the plan (another port, not planned, another speed) a red cross on its link.
    struct PlanMark {
        int nodeA = -1, nodeB = -1;  // a missing cable's ends (-1 when the fabric lacks the node)
        int link = -1;               // a cable off the plan: its link (-1 when not in the fabric)
        bool missing = false;        // a planned cable not cabled, else a cable off the plan
        QString text;                // the finding's summary
    };
    [[nodiscard]] const std::vector<PlanMark>& planMarks() const { return planMarks_; }
    // A missing cable's line ends, or an off-plan link's cross centre (second = first); nullopt off screen.
    [[nodiscard]] std::optional<std::pair<QPointF, QPointF>> planMarkGeometry(const PlanMark& mark) const;

    // Hit testing and probes (widget coordinates), also used by tests.
    [[nodiscard]] int nodeAt(QPointF pos) const;       // node index or -1 (hosts only when unfolded)
    [[nodiscard]] int linkAt(QPointF pos) const;       // link index or -1 (hottest member of a bundle)
    [[nodiscard]] std::optional<QPointF> nodePosition(int node) const;
    [[nodiscard]] std::optional<QPoint> pixelOfLink(int link) const;  // a pixel showing the link's edge
    [[nodiscard]] QRgb linkColour(int link) const;     // colour of the link's edge at the cursor
    [[nodiscard]] float linkValue(int link) const;     // the metric of a link at the cursor
    [[nodiscard]] QString tooltipAt(QPointF pos) const;  // a node's full name, GUID and tier; a link's rates
    // The label drawn by a node in the current frame (its row's shared start and end left out,
    // views/label_trim.h); empty when none is drawn.
    [[nodiscard]] QString drawnLabel(int node) const;
    // The legend's note on the bands of links drawn at low zoom ("bundle: worst of its links ...",
    // views/link_bundles.h); empty when the frame has none.
    [[nodiscard]] QString bundleLegend() const;
    // Where the colour legend is drawn (top right), for the metric's scale or a comparison's;
    // empty when none is (a store without counters).
    [[nodiscard]] QRect legendRect() const;

    struct FrameCost {
        double geometryMs = 0;  // last id-buffer + node-layer render
        double recolourMs = 0;  // last recolour through the colour table
    };
    [[nodiscard]] FrameCost lastFrameCost() const { return cost_; }
    // Renders the next frame now (tests and benchmarks). Painting instead renders the geometry on a
    // worker and shows the previous frame, moved and scaled, until it lands (frameReady()).
    void renderFrame();
    [[nodiscard]] bool frameIsCurrent() const { return !geometryDirty_ && !idBuffer_.isNull() && idBuffer_.size() == size(); }
    [[nodiscard]] int droppedFrames() const { return droppedFrames_; }
    [[nodiscard]] std::shared_ptr<const StoreSnapshot> snapshot() const { return snapshot_; }

public Q_SLOTS:
    void setMetric(fabscope::LinkMetric metric);
    void setTime(double t);
    void selectNode(int node);
    void selectLink(int link);
    void clearSelection();
    // Links and nodes to emphasise (a finding's ports and path); empty clears.
    // A finding's overlay: its links, its path in order, its origin and the ports it spread to.
    void setFindingOverlay(fabscope::FindingFocus focus);
    void clearFindingOverlay();
    // Fat tree, dragonfly or rail layout, or Auto (the shape found from the graph).
    void setLayoutKind(fabscope::LayoutKind kind);
    // Zooms and pans so these nodes fill the view (unfolding hosts when they are among them).
    void frameNodes(const std::vector<std::uint32_t>& nodes);
    void fit();
    void zoomBy(double factor, double anchorX);
    void panBy(double dx);

Q_SIGNALS:
    void nodeClicked(int node);
    void linkClicked(int link);
    void selectionCleared();
    void viewChanged();
    void frameReady();  // a geometry frame rendered off the GUI thread was adopted
    void layoutChanged();  // a new layout (store or kind); currentLayout() tells which
    // Right-click: `menu` is offered for the node or link under the cursor (-1: none) and shown
    // when a receiver filled it (the window's "What if this link fails?", issue #22).
    void contextMenuRequested(QMenu* menu, int node, int link);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;  // fabric_view_overlay.cpp

private:
    [[nodiscard]] QPointF pointPos(std::uint32_t point) const;
    [[nodiscard]] double fitScale() const;
    [[nodiscard]] int edgeAt(QPointF pos) const;
    [[nodiscard]] std::uint32_t edgeOfLink(int link) const;
    void updateFolding();
    void renderGeometry();
    [[nodiscard]] FabricGeometryInput geometryInput() const;
    void adoptFrame(FabricGeometryFrame frame);
    void requestGeometry();
    void recolour();
    void invalidateGeometry();
    void paintFindingOverlay(QPainter& p) const;
    void paintHopNumbers(QPainter& p) const;
    void updateModuleMarks();
    void paintModuleMarks(QPainter& p) const;
    void updatePlanMarks();
    void paintPlanMarks(QPainter& p) const;
    [[nodiscard]] QString planMarksTooltip(int node, int link) const;  // "" when none
    [[nodiscard]] QString planMarksNote() const;                       // for the header; "" when none
    [[nodiscard]] QString moduleMarksTooltip(int node, int link) const;  // "" when none
    // Bands (fabric_view_bundles.cpp): the bundle list of the frame's level of detail, the band an
    // edge is drawn in (-1: drawn alone), the ends of a drawn id (edge, or edges + band), the
    // worst link under a drawn id, the bands' colours, the legend's note.
    [[nodiscard]] const LinkBundles* frameBundles() const;
    [[nodiscard]] std::size_t frameEdgeCount() const;
    [[nodiscard]] int bandOfEdge(std::uint32_t edge) const;
    [[nodiscard]] std::pair<QPointF, QPointF> drawnEnds(std::uint32_t id) const;
    [[nodiscard]] int worstLinkOf(std::uint32_t id) const;
    [[nodiscard]] QString bandTooltip(std::uint32_t band) const;
    void colourBands();
    void paintBandNote(QPainter& p, const QRect& area) const;

    std::shared_ptr<const StoreSnapshot> snapshot_;
    std::shared_ptr<const FabricLayout> layout_;
    ColourScale scale_;
    double time_ = 0;
    int bin_ = -1;
    double sx_ = 1, ox_ = 0;  // screen x = ox_ + sx_ * world x
    bool folded_ = true;
    bool geometryDirty_ = true, colourDirty_ = true;
    QImage idBuffer_;    // RGB32: edge id + 1 per pixel, 0 = background (of the last adopted frame)
    double frameSx_ = 1, frameOx_ = 0;  // the view the id buffer was drawn for
    bool frameFolded_ = true;
    std::vector<char> frameBands_;  // per bundle of the frame's level of detail: drawn as a band
    int geometryGeneration_ = 0;
    BackgroundJob* geometryJob_;
    int droppedFrames_ = 0;  // stale frames from the worker, dropped
    QImage composed_;    // recoloured id buffer
    QImage nodeLayer_;   // nodes and labels, premultiplied ARGB
    std::vector<std::pair<std::uint32_t, QString>> frameLabels_;  // the labels drawn in nodeLayer_
    std::vector<float> edgeValue_;   // per drawn edge, then per band, at the cursor
    std::vector<QRgb> edgeColour_;   // index = drawn id + 1 (edges, then bands)
    int selectedNode_ = -1, selectedLink_ = -1;
    FindingFocus overlay_;
    OpticsConfig opticsConfig_;
    ErrorLinkConfig berConfig_;
    std::vector<ModuleMark> moduleMarks_;
    std::vector<NodeErrorMark> errorMarks_;
    std::vector<PlanMark> planMarks_;
    std::shared_ptr<const CompareColouring> compare_;
    LayoutKind layoutKind_ = LayoutKind::Auto;
    QPoint pressPos_;
    double pressOx_ = 0;
    bool dragging_ = false;
    FrameCost cost_;
};

} // namespace fabscope
