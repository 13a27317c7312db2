#include "views/layout_chooser.h"

#include "views/fabric_view.h"

#include <QActionGroup>
#include <QMenu>

namespace fabscope {
namespace {

struct Choice {
    LayoutKind kind;
    const char* label;
};
constexpr Choice kChoices[] = {{LayoutKind::Auto, QT_TRANSLATE_NOOP("fabscope::LayoutChooser", "Automatic")},
                               {LayoutKind::FatTree, QT_TRANSLATE_NOOP("fabscope::LayoutChooser", "Fat tree (tiers)")},
                               {LayoutKind::Dragonfly, QT_TRANSLATE_NOOP("fabscope::LayoutChooser", "Dragonfly (groups)")},
                               {LayoutKind::Rail, QT_TRANSLATE_NOOP("fabscope::LayoutChooser", "Rail-optimised (rails)")}};

QString shapeLabel(FabricShape s) {
    switch (s) {
    case FabricShape::Dragonfly: return LayoutChooser::tr("dragonfly");
    case FabricShape::Rail: return LayoutChooser::tr("rail-optimised");
    case FabricShape::FatTree: break;
    }
    return LayoutChooser::tr("fat tree");
}

QString autoLabel(const FabricView* view) {
    const FabricLayout* L = view->currentLayout();
    if (!L || view->layoutKind() != LayoutKind::Auto) return LayoutChooser::tr("Automatic");
    return LayoutChooser::tr("Automatic: %1").arg(shapeLabel(L->shape));
}

} // namespace

LayoutChooser::LayoutChooser(FabricView* view, QWidget* parent) : QComboBox(parent), view_(view) {
    setObjectName(QStringLiteral("layoutBox"));
    setAccessibleName(tr("Fabric layout"));
    setToolTip(tr("How the fabric is laid out: found from the graph (Automatic), or forced"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (const auto& c : kChoices) addItem(tr(c.label), static_cast<int>(c.kind));
    connect(this, &QComboBox::activated, this,
            [this](int index) { view_->setLayoutKind(static_cast<LayoutKind>(itemData(index).toInt())); });
    connect(view_, &FabricView::layoutChanged, this, &LayoutChooser::sync);
    sync();
}

void LayoutChooser::sync() {
    setItemText(0, autoLabel(view_));
    setCurrentIndex(findData(static_cast<int>(view_->layoutKind())));
}

QMenu* addLayoutMenu(QMenu* viewMenu, FabricView* view) {
    QMenu* menu = viewMenu->addMenu(LayoutChooser::tr("&Layout"));
    menu->setObjectName(QStringLiteral("layoutMenu"));
    auto* group = new QActionGroup(menu);
    for (const auto& c : kChoices) {
        QAction* a = menu->addAction(LayoutChooser::tr(c.label));
        a->setCheckable(true);
        a->setChecked(c.kind == view->layoutKind());
        a->setData(static_cast<int>(c.kind));
        group->addAction(a);
        const LayoutKind kind = c.kind;
        QObject::connect(a, &QAction::triggered, view, [view, kind] { view->setLayoutKind(kind); });
    }
    QObject::connect(view, &FabricView::layoutChanged, menu, [menu, view] {
        for (QAction* a : menu->actions())
            if (a->data().toInt() == static_cast<int>(view->layoutKind())) a->setChecked(true);
        menu->actions().front()->setText(autoLabel(view));
    });
    return menu;
}

} // namespace fabscope
