#include "views/time_scrubber.h"

#include "views/time_controller.h"
#include "views/utc_text.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QProxyStyle>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fabscope {
namespace {

// A click on the slider's groove jumps there (the platform default pages by a tenth).
class JumpToClickStyle : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;
    int styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget, QStyleHintReturn* ret) const override {
        if (hint == QStyle::SH_Slider_AbsoluteSetButtons) return Qt::LeftButton;
        return QProxyStyle::styleHint(hint, option, widget, ret);
    }
};

} // namespace

// The span drawn as a bar: the selected range shaded, the cursor as a line; drag selects.
class RangeBar : public QWidget {
public:
    explicit RangeBar(TimeController* time, QWidget* parent) : QWidget(parent), time_(time) {
        setObjectName(QStringLiteral("rangeBar"));
        setAccessibleName(tr("Analysis window"));
        setToolTip(tr("Drag to select the analysis window; [ and ] set its start and end at the cursor, "
                      "Escape clears it."));
        setFixedHeight(18);
        setCursor(Qt::IBeamCursor);
    }

    void setAnnotations(const std::vector<Annotation>& list) {
        annotations_.clear();
        for (const Annotation& a : list)
            annotations_.push_back({a.id, TimeRange::between(a.start, a.end), QString::fromStdString(a.note), {}});
        std::stable_sort(annotations_.begin(), annotations_.end(),
                         [](const AnnotationSpan& x, const AnnotationSpan& y) { return x.range.start < y.range.start; });
        update();
    }

    // The annotations with their pixel spans: a strip along the bar's lower part, at least
    // 3 px wide so an instant stays visible and hoverable; none outside the span.
    [[nodiscard]] std::vector<AnnotationSpan> spans() const {
        std::vector<AnnotationSpan> out;
        const TimeRange span = time_->span();
        if (!span.valid()) return out;
        for (AnnotationSpan a : annotations_) {
            if (a.range.end < span.start || a.range.start > span.end) continue;
            int x0 = xOf(std::max(a.range.start, span.start)), x1 = xOf(std::min(a.range.end, span.end));
            if (x1 - x0 < 3) {
                const int mid = (x0 + x1) / 2;
                x0 = mid - 1;
                x1 = mid + 2;
            }
            a.rect = QRect(x0, height() - stripHeight - 1, x1 - x0, stripHeight);
            out.push_back(std::move(a));
        }
        return out;
    }

    [[nodiscard]] QString tooltipAt(QPoint pos) const {
        QStringList tips;
        for (const AnnotationSpan& a : spans()) {
            if (pos.x() < a.rect.left() - 1 || pos.x() > a.rect.right() + 1) continue;  // whole bar height hovers
            const TimeRange& r = a.range;
            const QString when = r.duration() > 0 ? tr("%1 UTC (%2 s)").arg(utcSpanText(r.start, r.end)).arg(r.duration(), 0, 'f', 0)
                : tr("%1 UTC (instant, 0 s)").arg(utcText(r.start));
            tips << tr("Annotation: %1\n%2").arg(a.note, when);
        }
        return tips.join(QStringLiteral("\n\n"));
    }

protected:
    bool event(QEvent* e) override {
        if (e->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(e);
            const QString tip = tooltipAt(help->pos());
            if (!tip.isEmpty()) {  // plain text: a note may contain markup characters
                QToolTip::showText(help->globalPos(), Qt::convertFromPlainText(tip, Qt::WhiteSpaceNormal), this);
                return true;
            }
        }
        return QWidget::event(e);
    }

    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), QColor(232, 235, 240));
        const TimeRange span = time_->span();
        if (!span.valid()) return;
        if (auto sel = time_->selection()) {
            const int x0 = xOf(sel->start), x1 = xOf(sel->end);
            p.fillRect(QRect(x0, 0, std::max(1, x1 - x0), height()), QColor(90, 140, 220, 150));
        }
        // Annotations: amber strips along the bottom, distinct from the blue full-height window.
        for (const AnnotationSpan& a : spans()) {
            p.fillRect(a.rect, QColor(240, 160, 30, 220));
            p.setPen(QColor(170, 95, 0));
            p.drawLine(a.rect.left(), 1, a.rect.left(), height() - 2);
            p.drawLine(a.rect.right(), a.rect.top(), a.rect.right(), height() - 2);
        }
        p.setPen(QPen(QColor(200, 30, 30), 2));
        const int x = xOf(time_->time());
        p.drawLine(x, 0, x, height());
        p.setPen(QColor(150, 150, 150));
        p.drawRect(rect().adjusted(0, 0, -1, -1));
    }
    void mousePressEvent(QMouseEvent* e) override {
        anchor_ = timeOf(e->position().x());
        dragging_ = true;
    }
    void mouseMoveEvent(QMouseEvent* e) override {
        if (dragging_) time_->setSelection(TimeRange::between(anchor_, timeOf(e->position().x())));
    }
    void mouseReleaseEvent(QMouseEvent* e) override {
        if (!dragging_) return;
        dragging_ = false;
        const double t = timeOf(e->position().x());
        if (std::abs(xOf(t) - xOf(anchor_)) < 3) time_->clearSelection();  // a click clears
        else time_->setSelection(TimeRange::between(anchor_, t));
    }

private:
    [[nodiscard]] int xOf(double t) const { return static_cast<int>(time_->span().fraction(t) * (width() - 1)); }
    [[nodiscard]] double timeOf(double x) const { return time_->span().at(x / std::max(1, width() - 1)); }
    static constexpr int stripHeight = 7;
    TimeController* time_;
    std::vector<AnnotationSpan> annotations_;
    double anchor_ = 0;
    bool dragging_ = false;
};

TimeScrubber::TimeScrubber(TimeController* time, QWidget* parent) : QWidget(parent), time_(time) {
    setObjectName(QStringLiteral("timeScrubber"));
    setAccessibleName(tr("Time scrubber"));

    play_ = new QToolButton(this);
    play_->setObjectName(QStringLiteral("playButton"));
    play_->setAccessibleName(tr("Play or pause"));
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    play_->setToolTip(tr("Play / pause (Space)"));
    auto* back = new QToolButton(this);
    back->setObjectName(QStringLiteral("stepBackButton"));
    back->setAccessibleName(tr("Step back one sample"));
    back->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    back->setToolTip(tr("Step back one sample (Left)"));
    auto* forward = new QToolButton(this);
    forward->setObjectName(QStringLiteral("stepForwardButton"));
    forward->setAccessibleName(tr("Step forward one sample"));
    forward->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    forward->setToolTip(tr("Step forward one sample (Right)"));

    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("timeSlider"));
    slider_->setAccessibleName(tr("Time cursor"));
    slider_->setToolTip(tr("The time every view shows; one step is one sample interval; click to jump there"));
    slider_->setEnabled(false);
    auto* jump = new JumpToClickStyle();  // over the application's style, which it does not own
    jump->setParent(slider_);
    slider_->setStyle(jump);
    range_ = new RangeBar(time, this);

    speed_ = new QComboBox(this);
    speed_->setObjectName(QStringLiteral("speedBox"));
    speed_->setAccessibleName(tr("Playback speed"));
    speed_->setToolTip(tr("Playback speed in samples per second"));
    for (double s : {1.0, 2.0, 5.0, 10.0, 25.0}) speed_->addItem(tr("%1 samples/s").arg(s), s);
    speed_->setCurrentIndex(1);

    label_ = new QLabel(tr("—"), this);
    label_->setObjectName(QStringLiteral("cursorLabel"));
    label_->setAccessibleName(tr("Cursor time"));
    label_->setMinimumWidth(label_->fontMetrics().horizontalAdvance(QStringLiteral("0000-00-00 00:00:00 UTC (+00000 s)")));
    rangeLabel_ = new QLabel(this);
    rangeLabel_->setObjectName(QStringLiteral("rangeLabel"));
    rangeLabel_->setAccessibleName(tr("Analysis window"));

    auto* top = new QHBoxLayout;
    top->addWidget(back);
    top->addWidget(play_);
    top->addWidget(forward);
    auto* bars = new QVBoxLayout;
    bars->setSpacing(1);
    bars->addWidget(range_);
    bars->addWidget(slider_);
    top->addLayout(bars, 1);
    top->addWidget(speed_);
    top->addWidget(label_);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 2, 4, 2);
    outer->addLayout(top);
    outer->addWidget(rangeLabel_);

    auto shortcut = [this](const QString& name, const QKeySequence& key, auto slot) {
        auto* a = new QAction(name, this);
        a->setObjectName(name);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    shortcut(tr("Play/pause"), QKeySequence(Qt::Key_Space), [this] { time_->togglePlaying(); });
    shortcut(tr("Step back"), QKeySequence(Qt::Key_Left), [this] { time_->stepBy(-1); });
    shortcut(tr("Step forward"), QKeySequence(Qt::Key_Right), [this] { time_->stepBy(1); });
    shortcut(tr("Window start at cursor"), QKeySequence(Qt::Key_BracketLeft), [this] { time_->selectionStartHere(); });
    shortcut(tr("Window end at cursor"), QKeySequence(Qt::Key_BracketRight), [this] { time_->selectionEndHere(); });
    shortcut(tr("Clear window"), QKeySequence(Qt::Key_Escape), [this] { time_->clearSelection(); });

    connect(play_, &QToolButton::clicked, time_, &TimeController::togglePlaying);
    connect(back, &QToolButton::clicked, this, [this] { time_->stepBy(-1); });
    connect(forward, &QToolButton::clicked, this, [this] { time_->stepBy(1); });
    connect(speed_, &QComboBox::currentIndexChanged, this, [this](int i) { time_->setSpeed(speed_->itemData(i).toDouble()); });
    time_->setSpeed(speed_->currentData().toDouble());
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        const int n = steps();
        if (n > 0) time_->setTime(time_->span().at(static_cast<double>(v) / n));
    });
    connect(time_, &TimeController::spanChanged, this, [this] { syncSpan(); });
    connect(time_, &TimeController::stepChanged, this, [this] { syncSpan(); });
    connect(time_, &TimeController::cursorChanged, this, &TimeScrubber::syncCursor);
    connect(time_, &TimeController::selectionChanged, this, [this] { syncSelection(); });
    connect(time_, &TimeController::playingChanged, this, &TimeScrubber::syncPlaying);
    syncSpan();
}

QWidget* TimeScrubber::rangeBar() const { return range_; }

void TimeScrubber::setAnnotations(const std::vector<Annotation>& list) { range_->setAnnotations(list); }
std::vector<AnnotationSpan> TimeScrubber::annotationSpans() const { return range_->spans(); }
QString TimeScrubber::annotationTooltipAt(QPoint pos) const { return range_->tooltipAt(pos); }

int TimeScrubber::steps() const {
    const TimeRange span = time_->span();
    if (!span.valid() || time_->step() <= 0) return 0;
    return static_cast<int>(std::lround(span.duration() / time_->step()));
}

void TimeScrubber::syncSpan() {
    const int n = steps();
    const QSignalBlocker block(slider_);  // syncing must not echo back as a user move
    slider_->setRange(0, n);
    slider_->setEnabled(n > 0);
    slider_->setPageStep(std::max(1, n / 10));
    syncCursor(time_->time());
    syncSelection();
}

void TimeScrubber::syncCursor(double t) {
    const TimeRange span = time_->span();
    const int n = steps();
    {
        const QSignalBlocker block(slider_);
        slider_->setValue(static_cast<int>(std::lround(span.fraction(t) * n)));
    }
    if (span.valid())
        label_->setText(tr("%1 UTC (+%2 s)").arg(utcText(t)).arg(t - span.start, 0, 'f', 0));
    else
        label_->setText(tr("No samples"));
    range_->update();
}

void TimeScrubber::syncSelection() {
    if (auto sel = time_->selection())
        rangeLabel_->setText(tr("Analysis window: %1 UTC (%2 s)").arg(utcSpanText(sel->start, sel->end)).arg(sel->duration(), 0, 'f', 0));
    else
        rangeLabel_->setText(tr("Analysis window: the whole span (drag on the bar above the slider to narrow it)"));
    range_->update();
}

void TimeScrubber::syncPlaying(bool playing) {
    play_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

} // namespace fabscope
