#pragma once
// The single owner of the time cursor (docs/ARCHITECTURE.md, conventions): every view reads the cursor from here and
// follows cursorChanged(); nothing else stores its own notion of "now". Also drives playback.
#include "core/time_range.h"

#include <QObject>

class QTimer;

namespace fabscope {

class TimeController : public QObject {
    Q_OBJECT
public:
    explicit TimeController(QObject* parent = nullptr);

    [[nodiscard]] const TimeCursor& cursor() const { return cursor_; }
    [[nodiscard]] double time() const { return cursor_.time; }
    [[nodiscard]] TimeRange span() const { return cursor_.span; }
    [[nodiscard]] std::optional<TimeRange> selection() const { return cursor_.selection; }
    [[nodiscard]] double step() const { return step_; }
    [[nodiscard]] bool isPlaying() const;
    [[nodiscard]] double speed() const { return speed_; }  // samples per second of playback

    // A new store: the span, the sampling step (seconds), cursor at the start, no selection.
    void reset(TimeRange span, double step);
    // The sampling step once it is known (rates load after the fabric is shown); cursor and
    // selection stay where the user put them.
    void setStep(double step);

public Q_SLOTS:
    void setTime(double t);
    void stepBy(int samples);
    void setSelection(TimeRange range);
    void clearSelection();
    void selectionStartHere();
    void selectionEndHere();
    void setPlaying(bool playing);
    void togglePlaying();
    void setSpeed(double samplesPerSecond);

Q_SIGNALS:
    void stepChanged(double step);
    void spanChanged(fabscope::TimeRange span);
    void cursorChanged(double time);
    // Emitted ~100 ms after the cursor stops moving, for panels too costly to follow every step.
    void cursorSettled(double time);
    void selectionChanged(std::optional<fabscope::TimeRange> selection);
    void playingChanged(bool playing);

private:
    void tick();

    TimeCursor cursor_;
    double step_ = 1;
    double speed_ = 2;
    QTimer* playTimer_ = nullptr;
    QTimer* settleTimer_ = nullptr;
    qint64 lastTickMs_ = 0;
};

} // namespace fabscope
