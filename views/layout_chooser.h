#pragma once
// Choosing the fabric view's layout: a combo box for the toolbar and a View > Layout submenu,
// both bound to one FabricView and kept in step with it. "Automatic" names the shape found.
#include <QComboBox>

class QMenu;

namespace fabscope {

class FabricView;

class LayoutChooser : public QComboBox {
    Q_OBJECT
public:
    LayoutChooser(FabricView* view, QWidget* parent = nullptr);

private:
    void sync();
    FabricView* view_;
};

// Adds View > Layout with one checkable action per layout; returns the submenu.
QMenu* addLayoutMenu(QMenu* viewMenu, FabricView* view);

} // namespace fabscope
