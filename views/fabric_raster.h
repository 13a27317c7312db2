#pragma once
// The fabric view's rasteriser: the visible links drawn once into a link-id buffer (each pixel
// holds the id of the edge drawn there) and the nodes into their own layer, off the GUI thread on
// zoom, pan and resize (docs/ARCHITECTURE.md, budget by pixels). The view then only recolours
// the buffer through a per-edge colour table at each cursor step.
#include "views/fabric_layout.h"

#include <QImage>
#include <QString>
#include <QSize>

#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace fabscope {

struct StoreSnapshot;

namespace raster {
constexpr double kTop = 86, kBottom = 28, kSide = 24;  // margins of the drawing, px
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
// The y of a layout row in a view `height` px tall (rows 0 .. top, hosts at the bottom).
double rowYOf(double top, int height, double row);
} // namespace raster

// What one geometry frame (id buffer + node layer) is drawn from and what it yields; rendered off
// the GUI thread on zoom/pan/resize, tagged with the view's generation so stale frames are dropped.
struct FabricGeometryInput {
    std::shared_ptr<const StoreSnapshot> snapshot;
    std::shared_ptr<const FabricLayout> layout;
    QSize size;
    double sx = 1, ox = 0, zoom = 1;
    bool folded = true;
    int generation = 0;
};
struct FabricGeometryFrame {
    std::shared_ptr<const StoreSnapshot> snapshot;
    QImage idBuffer, nodeLayer;
    std::vector<std::pair<std::uint32_t, QString>> labels;  // node, label as drawn
    // Per bundle of the level of detail drawn: 1 when drawn as a band, with id buffer value
    // edges + bundle + 1 (views/link_bundles.h); its edges are then not drawn one by one.
    std::vector<char> bands;
    double sx = 1, ox = 0, ms = 0;
    bool folded = true;
    int generation = 0;
};

FabricGeometryFrame renderGeometryFrame(const FabricGeometryInput& in);

} // namespace fabscope
