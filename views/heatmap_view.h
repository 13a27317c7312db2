#pragma once
// The links x time heatmap: one row per link, ordered by tier (the links between the highest
// tiers on top) and then by hotness (peak of the metric), max-pooled to the pixels of the plot
// (never scaled: a one-bin spike on one link stays visible, docs/ARCHITECTURE.md) on a worker thread with a
// generation id (stale results dropped). Shares the time cursor (a vertical line), shows "link,
// time, value with unit" on hover, and a click (or Up/Down) selects a link; a click also asks
// for the time cursor at the clicked cell's time (timeClicked). Per metric and snapshot it keeps
// the link order and a reduced copy (whole groups of links in that order, max-pooled), so a
// redraw reads a small part of the rates; after a snapshot's first image it prepares them in the
// background for every stored metric, so a metric's first draw is as quick as a later one.
#include "views/colour_scale.h"
#include "views/utc_text.h"

#include <QColor>
#include <QImage>
#include <QWidget>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace fabscope {

class BackgroundJob;

struct StoreSnapshot;

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);
    ~HeatmapView() override;

    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    [[nodiscard]] LinkMetric metric() const { return scale_.metric(); }
    [[nodiscard]] const std::vector<std::uint32_t>& order() const { return order_; }  // links, top row first
    [[nodiscard]] bool imageReady() const { return !image_.isNull() && imageGeneration_ == generation_; }
    [[nodiscard]] QSize imageSize() const { return image_.size(); }  // the pooled image, one cell per plot pixel
    [[nodiscard]] const QImage& image() const { return image_; }
    [[nodiscard]] QRect plotRect() const;
    [[nodiscard]] int legendLeft() const;  // the colour legend's left edge; the header stays left of it
    [[nodiscard]] QRect legendRect() const;  // beside the header, or below it in a narrow view
    [[nodiscard]] bool legendBelowHeader() const;
    // Hit testing (widget coordinates), also used by tests.
    [[nodiscard]] int linkAt(QPointF pos) const;  // hottest link drawn in that pixel row at that time, -1 outside
    [[nodiscard]] std::optional<int> rowYOfLink(int link) const;  // a y inside the link's pixel row(s)
    [[nodiscard]] int xOfTime(double t) const;
    [[nodiscard]] QString tooltipAt(QPointF pos) const;
    // Drawn under the time axis: "time (UTC), 2023-11-14", two dates when the span crosses midnight.
    [[nodiscard]] QString timeAxisTitle() const;
    [[nodiscard]] std::vector<TimeTick> timeAxisTicks() const;  // on round UTC times
    [[nodiscard]] int cursorX() const { return xOfTime(time_); }
    [[nodiscard]] double lastPoolMs() const { return poolMs_; }
    // True while the background preparation of the other metrics' orders runs or waits to run.
    [[nodiscard]] bool preparing() const;
    // A line of its own in the header saying what the rows show while the fabric shows something
    // else (compare mode: one run, not the change); empty for none.
    void setModeNote(const QString& note);
    [[nodiscard]] QString modeNote() const { return modeNote_; }
    // Time windows marked on the plot (compare mode: the good and the bad window): a strip above
    // the plot in the window's colour, its label at the plot's top; none by default.
    struct MarkedWindow {
        double from = 0, to = 0;  // UNIX s
        QString label;
        QColor colour;
    };
    void setMarkedWindows(std::vector<MarkedWindow> windows);
    [[nodiscard]] const std::vector<MarkedWindow>& markedWindows() const { return marked_; }
    // The label's box of a marked window as painted (empty when it is outside the span).
    [[nodiscard]] QRect markedLabelRect(const MarkedWindow& w) const;

public Q_SLOTS:
    void setMetric(fabscope::LinkMetric metric);
    void setTime(double t);
    void setSelectedLink(int link);

Q_SIGNALS:
    void linkClicked(int link);
    void timeClicked(double t);  // the start of the clicked cell's first sample bin (UNIX s)
    void imageUpdated();
    void metricsPrepared();  // every stored metric of this snapshot has its order and reduced copy

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    [[nodiscard]] int headerHeight() const;  // the three header lines
    [[nodiscard]] int topMargin() const;     // above the plot: header and legend
    struct Band {
        int upperTier, lowerTier;
        std::size_t first, count;  // range in order_
    };
    void repool();
    void startJob();
    void prepareNext();  // the next stored metric without an order, on prepJob_
    [[nodiscard]] std::pair<std::size_t, std::size_t> orderRangeOfY(int y) const;
    [[nodiscard]] std::pair<std::size_t, std::size_t> binRangeOfX(int x) const;
    // The hottest link in a pixel cell and its value (link -1 when none has data there).
    [[nodiscard]] std::pair<int, float> hottestAt(QPoint p) const;

    std::shared_ptr<const StoreSnapshot> snapshot_;
    ColourScale scale_;
    std::vector<std::uint32_t> order_;
    std::vector<Band> bands_;
    // Order, bands and reduced copy (null for derived metrics) per metric for this snapshot:
    // choosing a metric again only pools (mostly from the reduced copy) and colours.
    struct Ordered {
        std::vector<std::uint32_t> order;
        std::vector<Band> bands;
        std::shared_ptr<const std::vector<float>> reduced;
    };
    std::map<fabscope::LinkMetric, Ordered> orderCache_;
    QImage image_;  // plot-sized, one pooled cell per pixel
    double time_ = 0;
    int selectedLink_ = -1;
    int generation_ = 0, imageGeneration_ = -1;
    BackgroundJob* job_;
    BackgroundJob* prepJob_;  // Replace: a redraw cancels it; it goes on after the image lands
    double poolMs_ = 0;
    QString modeNote_;
    std::vector<MarkedWindow> marked_;
};

} // namespace fabscope
