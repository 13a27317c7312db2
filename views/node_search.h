#pragma once
// Find a node on a large fabric by what an engineer has at hand: its description or host name
// (substring, any case), its GUID (with or without 0x and leading zeros), or a LID of the node or
// one of its ports. The search box (Ctrl+F, or Ctrl+K) selects and frames the first match; Enter again
// steps to the next one.
#include <QLineEdit>

#include <cstdint>
#include <memory>
#include <vector>

namespace fabscope {

struct StoreSnapshot;

// Matching nodes, exact GUID and LID matches first, then by description.
std::vector<std::uint32_t> findNodes(const StoreSnapshot& snapshot, const QString& query);

class NodeSearchBox : public QLineEdit {
    Q_OBJECT
public:
    explicit NodeSearchBox(QWidget* parent = nullptr);
    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);

Q_SIGNALS:
    void nodeFound(int node);
    void message(const QString& text);  // "3 matches for gpu01 (1 of 3)", "no node matches ..."

private:
    void search();

    std::shared_ptr<const StoreSnapshot> snapshot_;
    QString lastQuery_;
    std::vector<std::uint32_t> matches_;
    std::size_t next_ = 0;
};

} // namespace fabscope
