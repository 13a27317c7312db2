#pragma once
// The parts the Changes (compare) and Prediction (what-if) docks share, one owner for both: the
// mode banner with Leave / Back buttons, their layout, their state, and how a result table looks.
#include <QString>

class QLabel;
class QPushButton;
class QTableView;
class QVBoxLayout;
class QWidget;

namespace fabscope {

struct ModeDockTexts {
    QString banner;  // object names
    QString leave, back;
    QString leaveText, leaveAccessible, leaveTip;
    QString backText, backAccessible, backTip;
};

struct ModeControls {
    QLabel* banner = nullptr;
    QPushButton* leave = nullptr;
    QPushButton* back = nullptr;
};

// The banner (plain text, wrapped) and the two buttons, children of `parent`.
ModeControls makeModeControls(QWidget* parent, const ModeDockTexts& texts);
// The dock's layout: banner, then the buttons in a row; the caller adds its tables below.
QVBoxLayout* modeLayout(QWidget* parent, const ModeControls& controls);
// Bold banner while the mode is on; Leave only then, Back only when a result waits off.
void showModeState(const ModeControls& controls, bool active, bool hasResult);
// Whole rows, one at a time, read-only, no row header, last column stretched, no wrapping.
void setupResultTable(QTableView* table, const QString& name, const QString& accessible);

} // namespace fabscope
