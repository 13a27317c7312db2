#include "views/mode_dock.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace fabscope {

namespace {
QPushButton* button(QWidget* parent, const QString& name, const QString& text, const QString& accessible, const QString& tip) {
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    b->setAccessibleName(accessible);
    b->setToolTip(tip);
    return b;
}
} // namespace

ModeControls makeModeControls(QWidget* parent, const ModeDockTexts& t) {
    ModeControls c;
    c.banner = new QLabel(parent);
    c.banner->setObjectName(t.banner);
    c.banner->setWordWrap(true);
    c.banner->setTextFormat(Qt::PlainText);
    c.leave = button(parent, t.leave, t.leaveText, t.leaveAccessible, t.leaveTip);
    c.back = button(parent, t.back, t.backText, t.backAccessible, t.backTip);
    return c;
}

QVBoxLayout* modeLayout(QWidget* parent, const ModeControls& c) {
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(c.leave);
    buttons->addWidget(c.back);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(parent);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(c.banner);
    layout->addLayout(buttons);
    return layout;
}

void showModeState(const ModeControls& c, bool active, bool hasResult) {
    QFont f = c.banner->font();
    f.setBold(active);
    c.banner->setFont(f);
    c.leave->setEnabled(active);
    c.back->setEnabled(!active && hasResult);
}

void setupResultTable(QTableView* t, const QString& name, const QString& accessible) {
    t->setObjectName(name);
    t->setAccessibleName(accessible);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    t->setWordWrap(false);
}

} // namespace fabscope
