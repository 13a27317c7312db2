#include "views/keyboard_handback.h"

#include <QApplication>
#include <QEvent>
#include <QPointer>
#include <QTimer>
#include <QWidget>

namespace fabscope {
namespace {

class KeyboardHandBack : public QObject {
public:
    explicit KeyboardHandBack(QWidget* dialog) : QObject(dialog), dialog_(dialog) {}

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched != dialog_ || !dialog_->parentWidget()) return QObject::eventFilter(watched, event);
        QWidget* window = dialog_->parentWidget()->window();
        if (event->type() == QEvent::Hide && QApplication::activeWindow() == dialog_) {
            // At once: a dialog closed on delete goes away before any queued call of its own.
            if (window->isVisible()) window->activateWindow();
        } else if (event->type() == QEvent::WindowActivate && !dialog_->isVisible()) {
            // Queued, not from inside the activation; the window is the context, not the dialog.
            QTimer::singleShot(0, window, [window, dialog = QPointer<QWidget>(dialog_)] {
                if ((!dialog || !dialog->isVisible()) && window->isVisible()) window->activateWindow();
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QWidget* dialog_;
};

} // namespace

void handKeyboardBackWhenHidden(QWidget* dialog) { dialog->installEventFilter(new KeyboardHandBack(dialog)); }

} // namespace fabscope
