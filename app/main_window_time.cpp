// View > Go to time… (Ctrl+T): the cursor to a time typed or pasted from a log, a ticket or a
// report, in the forms the CLI takes (importers/user_time.h) or as a time of day alone.
#include "app/main_window.h"
#include "importers/user_time.h"
#include "views/time_controller.h"
#include "views/utc_text.h"

#include <QInputDialog>
#include <QStatusBar>

#include <cmath>

namespace fabscope {

void MainWindow::askTimeToGoTo() {
    if (!snapshot_) return;
    const TimeRange span = time_->span();
    auto* dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("goToTimeDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Go to time"));
    dialog->setLabelText(tr("A time within %1 UTC:\n"
                            "2023-11-14 22:17:05 (UTC), 2023-11-14T23:17:05+01:00, UNIX seconds,\n"
                            "or 22:17:05 alone (its first time in the span)")
                             .arg(utcSpanText(span.start, span.end)));
    dialog->setTextValue(utcText(time_->time()));
    connect(dialog, &QInputDialog::textValueSelected, this, [this](const QString& text) { goToTime(text); });
    dialog->open();
}

bool MainWindow::goToTime(const QString& text) {
    const TimeRange span = time_->span();
    const std::string typed = text.toStdString();
    std::optional<double> t = readUserTime(typed);
    if (!t)
        if (const auto ofDay = readTimeOfDay(typed)) {  // the first such time at or after the span's start
            const double day = std::floor(span.start / 86400.0) * 86400.0;
            t = day + *ofDay < span.start ? day + 86400.0 + *ofDay : day + *ofDay;
        }
    if (!t) {
        statusBar()->showMessage(tr("Not a time: '%1' (UNIX seconds, or UTC as 2023-11-14 22:17:05)").arg(text));
        return false;
    }
    if (*t < span.start || *t > span.end) {
        statusBar()->showMessage(tr("%1 UTC is outside the store's span, %2 UTC").arg(utcText(*t), utcSpanText(span.start, span.end)));
        return false;
    }
    time_->setTime(*t);
    statusBar()->showMessage(tr("Cursor at %1 UTC").arg(utcText(time_->time())));
    return true;
}

} // namespace fabscope
