#pragma once
// Help > Keyboard shortcuts (F1): every action of the window's menus with its shortcut, read from
// the menus themselves so the list cannot go stale, plus the keys of the fabric view and scrubber.
// Help > About: the version and where the documentation is.
#include <QDialog>

class QMainWindow;

namespace fabscope {

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QMainWindow* window);
    [[nodiscard]] QString text() const { return text_; }  // the listed shortcuts, one "keys  action" per line

private:
    QString text_;
};

void showAbout(QWidget* parent);

} // namespace fabscope
