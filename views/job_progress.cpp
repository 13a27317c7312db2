#include "views/job_progress.h"

#include "views/background_job.h"
#include "views/keyboard_handback.h"

#include <QProgressDialog>
#include <QTimer>
#include <QWidget>

namespace fabscope {

JobProgress::JobProgress(BackgroundJob* job, QWidget* owner, const QString& objectName, const QString& title)
    : QObject(owner), job_(job), owner_(owner), objectName_(objectName), title_(title) {}

void JobProgress::showWhile(int generation, const QString& label) {
    if (!dialog_) {
        dialog_ = new QProgressDialog(label, tr("Cancel"), 0, 0, owner_);
        dialog_->setObjectName(objectName_);
        dialog_->setWindowTitle(title_);
        dialog_->setWindowModality(Qt::WindowModal);
        dialog_->setAutoReset(false);
        dialog_->setAutoClose(false);
        connect(dialog_, &QProgressDialog::canceled, this, &JobProgress::cancelled);
        handKeyboardBackWhenHidden(dialog_);
    }
    dialog_->reset();  // also stops the dialog's own show timer: the one below decides
    dialog_->setLabelText(label);
    dialog_->setRange(0, 0);
    QTimer::singleShot(kShowAfterMs, dialog_, [this, generation] {
        if (job_->busy() && job_->generation() == generation) dialog_->show();
    });
}

void JobProgress::close() {
    if (dialog_) dialog_->hide();  // the keyboard goes back through handKeyboardBackWhenHidden
}

} // namespace fabscope
