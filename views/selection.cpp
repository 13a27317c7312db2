#include "views/selection.h"

#include "views/store_snapshot.h"

namespace fabscope {

SelectionController::SelectionController(QObject* parent) : QObject(parent) {}

void SelectionController::set(Kind kind, int index) {
    if (index < 0) kind = Kind::None, index = -1;
    if (kind == kind_ && index == index_) return;
    kind_ = kind;
    index_ = index;
    Q_EMIT changed();
}

void SelectionController::selectNode(int node) { set(Kind::Node, node); }
void SelectionController::selectPort(int port) { set(Kind::Port, port); }
void SelectionController::selectLink(int link) { set(Kind::Link, link); }
void SelectionController::clear() { set(Kind::None, -1); }

int linkOfSelection(const SelectionController& selection, const StoreSnapshot* snapshot) {
    if (selection.link() >= 0) return selection.link();
    if (selection.port() < 0 || !snapshot) return -1;
    const auto link = snapshot->linkOf(PortId(static_cast<std::size_t>(selection.port())));
    return link ? static_cast<int>(link->value()) : -1;
}

} // namespace fabscope
