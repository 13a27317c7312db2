#pragma once
// The time scrubber: a slider over the store's sample span, play/pause (Space), step
// (Left/Right), playback speed, and a range bar where a drag (or [ and ] at the cursor) selects
// the analysis window. It shows and edits the TimeController's cursor; it holds no time itself.
#include "core/time_range.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace fabscope {

class TimeController;
class RangeBar;

class TimeScrubber : public QWidget {
    Q_OBJECT
public:
    explicit TimeScrubber(TimeController* time, QWidget* parent = nullptr);
    [[nodiscard]] QSlider* slider() const { return slider_; }
    [[nodiscard]] QWidget* rangeBar() const;

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
