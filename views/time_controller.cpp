#include "views/time_controller.h"

#include <QDateTime>
#include <QTimer>

namespace fabscope {

TimeController::TimeController(QObject* parent) : QObject(parent) {
    setObjectName(QStringLiteral("timeController"));
    playTimer_ = new QTimer(this);
    playTimer_->setInterval(20);  // like PlotJuggler's playback tick
    connect(playTimer_, &QTimer::timeout, this, &TimeController::tick);
    settleTimer_ = new QTimer(this);
    settleTimer_->setSingleShot(true);
    settleTimer_->setInterval(100);
    connect(settleTimer_, &QTimer::timeout, this, [this] { Q_EMIT cursorSettled(cursor_.time); });
}

bool TimeController::isPlaying() const { return playTimer_->isActive(); }

void TimeController::reset(TimeRange span, double step) {
    setPlaying(false);
    cursor_ = TimeCursor{span, span.valid() ? span.start : 0, std::nullopt};
    step_ = step > 0 ? step : 1;
    Q_EMIT spanChanged(span);
    Q_EMIT selectionChanged(std::nullopt);
    Q_EMIT cursorChanged(cursor_.time);
    settleTimer_->start();
}

void TimeController::setStep(double step) {
    if (step <= 0 || step == step_) return;
    step_ = step;
    Q_EMIT stepChanged(step_);
}

void TimeController::setTime(double t) {
    if (!cursor_.moveTo(t)) return;
    Q_EMIT cursorChanged(cursor_.time);
    settleTimer_->start();
}

void TimeController::stepBy(int samples) { setTime(cursor_.time + step_ * samples); }

void TimeController::setSelection(TimeRange range) {
    const TimeRange r = range.intersected(cursor_.span);
    std::optional<TimeRange> next;
    if (r.valid() && r.duration() > 0) next = r;
    if (next == cursor_.selection) return;
    cursor_.selection = next;
    Q_EMIT selectionChanged(cursor_.selection);
}

void TimeController::clearSelection() {
    if (!cursor_.selection) return;
    cursor_.selection.reset();
    Q_EMIT selectionChanged(std::nullopt);
}

void TimeController::selectionStartHere() {
    const double end = cursor_.selection ? cursor_.selection->end : cursor_.span.end;
    setSelection(TimeRange::between(cursor_.time, end));
}

void TimeController::selectionEndHere() {
    const double start = cursor_.selection ? cursor_.selection->start : cursor_.span.start;
    setSelection(TimeRange::between(start, cursor_.time));
}

void TimeController::setPlaying(bool playing) {
    if (playing == isPlaying()) return;
    if (playing && !cursor_.span.valid()) return;
    if (playing) {
        if (cursor_.time >= cursor_.span.end) setTime(cursor_.span.start);  // replay from the start
        lastTickMs_ = QDateTime::currentMSecsSinceEpoch();
        playTimer_->start();
    } else {
        playTimer_->stop();
    }
    Q_EMIT playingChanged(playing);
}

void TimeController::togglePlaying() { setPlaying(!isPlaying()); }

void TimeController::setSpeed(double samplesPerSecond) { speed_ = samplesPerSecond > 0 ? samplesPerSecond : 1; }

void TimeController::tick() {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const double dt = static_cast<double>(now - lastTickMs_) / 1000.0;
    lastTickMs_ = now;
    setTime(cursor_.time + dt * speed_ * step_);
    if (cursor_.time >= cursor_.span.end) setPlaying(false);
}

} // namespace fabscope
