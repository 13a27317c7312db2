#pragma once
// The time scrubber: a slider over the store's sample span, play/pause (Space), step
// (Left/Right), playback speed, and a range bar where a drag (or [ and ] at the cursor) selects
// the analysis window. It shows and edits the TimeController's cursor; it holds no time itself.
// The store's annotations are drawn on the range bar as amber spans with a tooltip each.
#include "core/store/annotations.h"
#include "core/time_range.h"

#include <QRect>
#include <QString>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace fabscope {

class TimeController;
class RangeBar;

// One annotation as drawn on the range bar; rect is in rangeBar() coordinates.
struct AnnotationSpan {
    std::int64_t id = 0;
    TimeRange range;
    QString note;
    QRect rect;
};

class TimeScrubber : public QWidget {
    Q_OBJECT
public:
    explicit TimeScrubber(TimeController* time, QWidget* parent = nullptr);
    [[nodiscard]] QSlider* slider() const { return slider_; }
    [[nodiscard]] QWidget* rangeBar() const;

    // The annotations to draw (those of the open store); replaces the previous ones.
    void setAnnotations(const std::vector<Annotation>& list);
    // The drawn annotations, by start time, with their current pixel spans on the range bar.
    [[nodiscard]] std::vector<AnnotationSpan> annotationSpans() const;
    // Plain-text tooltip for the annotations under pos (rangeBar() coordinates); empty when none.
    [[nodiscard]] QString annotationTooltipAt(QPoint pos) const;

private:
    void syncSpan();
    void syncCursor(double t);
    void syncSelection();
    void syncPlaying(bool playing);
    [[nodiscard]] int steps() const;

    TimeController* time_;
    QSlider* slider_ = nullptr;
    RangeBar* range_ = nullptr;
    QToolButton* play_ = nullptr;
    QComboBox* speed_ = nullptr;
    QLabel* label_ = nullptr;
    QLabel* rangeLabel_ = nullptr;
};

} // namespace fabscope
