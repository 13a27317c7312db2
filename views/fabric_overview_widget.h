#pragma once
// A first fabric picture: nodes in tiers (hosts at the bottom), links drawn in colour batches.
// Links running below the usual width of their tier pair are highlighted as degraded.
#include "views/store_snapshot.h"

#include <QWidget>

#include <memory>

namespace fabscope {

class FabricOverviewWidget : public QWidget {
    Q_OBJECT
public:
    explicit FabricOverviewWidget(QWidget* parent = nullptr);
    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    [[nodiscard]] int degradedLinkCount() const { return static_cast<int>(degraded_.size()); }
    // Node under a widget position, or -1.
    [[nodiscard]] int nodeAt(QPointF pos) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void layoutNodes();

    std::shared_ptr<const StoreSnapshot> snapshot_;
    std::vector<QPointF> positions_;
    std::vector<std::size_t> degraded_;  // link indices
    int maxTier_ = 0;
};

} // namespace fabscope
