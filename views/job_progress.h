#pragma once
// The progress dialog of a panel's background runs (compare, what-if): window-modal, busy (the
// core reports no fractions), with Cancel. It shows only when a run takes over kShowAfterMs, so a
// quick run flashes no dialog, and once hidden it gives the keyboard back to the window it covered
// (views/keyboard_handback.h), even when its activation arrives after it was hidden: otherwise Esc,
// pressed right after the run, reaches no shortcut.
#include <QObject>
#include <QString>

class QProgressDialog;
class QWidget;

namespace fabscope {

class BackgroundJob;

class JobProgress : public QObject {
    Q_OBJECT
public:
    static constexpr int kShowAfterMs = 300;

    // `owner`: the panel; its window gets the keyboard back. The dialog is made on first use,
    // named `objectName` (its window handle becomes `objectName` + "Window").
    JobProgress(BackgroundJob* job, QWidget* owner, const QString& objectName, const QString& title);

    // Call after job->run(): shows `label` if the run `generation` is still under way after
    // kShowAfterMs.
    void showWhile(int generation, const QString& label);
    // The run landed, failed, was cancelled or dropped: hides the dialog, keyboard back.
    void close();
    [[nodiscard]] QProgressDialog* dialog() const { return dialog_; }

Q_SIGNALS:
    void cancelled();  // Cancel (or Esc) in the dialog

private:
    BackgroundJob* job_;
    QWidget* owner_;
    QString objectName_;
    QString title_;
    QProgressDialog* dialog_ = nullptr;
};

} // namespace fabscope
