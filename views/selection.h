#pragma once
// The one selection every view follows (like the time cursor, docs/ARCHITECTURE.md, conventions): a node, a port or a
// link of the loaded fabric. The fabric view, the heatmap and the findings set it; the inspector,
// the charts and the annotations read it.
#include <QObject>

#include <cstdint>
#include <vector>

namespace fabscope {

struct StoreSnapshot;

class SelectionController : public QObject {
    Q_OBJECT
public:
    enum class Kind { None, Node, Port, Link };
    explicit SelectionController(QObject* parent = nullptr);

    [[nodiscard]] Kind kind() const { return kind_; }
    [[nodiscard]] int index() const { return index_; }  // node, port or link index; -1 for None
    [[nodiscard]] int node() const { return kind_ == Kind::Node ? index_ : -1; }
    [[nodiscard]] int port() const { return kind_ == Kind::Port ? index_ : -1; }
    [[nodiscard]] int link() const { return kind_ == Kind::Link ? index_ : -1; }

public Q_SLOTS:
    void selectNode(int node);
    void selectPort(int port);
    void selectLink(int link);
    void clear();

Q_SIGNALS:
    void changed();

private:
    void set(Kind kind, int index);
    Kind kind_ = Kind::None;
    int index_ = -1;
};

// The link to show for the selection: the selected link, or the link of the selected port; -1.
int linkOfSelection(const SelectionController& selection, const StoreSnapshot* snapshot);

} // namespace fabscope
