#include "views/node_search.h"

#include "views/store_snapshot.h"

#include <algorithm>

namespace fabscope {
namespace {

// "0x0002C903000A1B2C", "2c903000a1b2c" -> "0x2c903000a1b2c" (how the model stores GUIDs).
QString normalGuid(QString s) {
    s = s.trimmed().toLower();
    if (s.startsWith(QStringLiteral("0x"))) s = s.mid(2);
    if (s.isEmpty() || s.size() > 16 || std::any_of(s.begin(), s.end(), [](QChar c) { return !c.isDigit() && (c < u'a' || c > u'f'); }))
        return {};
    while (s.size() > 1 && s.front() == u'0') s.remove(0, 1);
    return QStringLiteral("0x") + s;
}

} // namespace

std::vector<std::uint32_t> findNodes(const StoreSnapshot& s, const QString& query) {
    const QString q = query.trimmed();
    std::vector<std::uint32_t> exact, partial;
    if (q.isEmpty()) return exact;
    const QString guid = normalGuid(q);
    bool isNumber = false;
    const int lid = q.toInt(&isNumber);
    const auto& f = s.fabric;
    std::vector<bool> lidMatch(f.nodes.size(), false);
    if (isNumber && lid > 0)
        for (const Port& p : f.ports)
            if (p.lid == lid) lidMatch[p.node.value()] = true;
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
        const Node& n = f.nodes[i];
        const auto id = static_cast<std::uint32_t>(i);
        if ((!guid.isEmpty() && QString::fromStdString(n.guid) == guid) || (isNumber && lid > 0 && (n.lid == lid || lidMatch[i])))
            exact.push_back(id);
        else if (QString::fromStdString(n.description).contains(q, Qt::CaseInsensitive) ||
                 QString::fromStdString(n.systemName).contains(q, Qt::CaseInsensitive))
            partial.push_back(id);
    }
    exact.insert(exact.end(), partial.begin(), partial.end());
    return exact;
}

NodeSearchBox::NodeSearchBox(QWidget* parent) : QLineEdit(parent) {
    setObjectName(QStringLiteral("nodeSearch"));
    setAccessibleName(tr("Find node"));
    setPlaceholderText(tr("Find node: name, host, GUID or LID (Ctrl+F)"));
    setToolTip(tr("A node's description or host name (part of it, any case), its GUID or a LID; Enter selects and frames the "
                  "first match, Enter again the next"));
    setClearButtonEnabled(true);
    setMinimumWidth(260);
    connect(this, &QLineEdit::returnPressed, this, &NodeSearchBox::search);
}

void NodeSearchBox::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    lastQuery_.clear();
}

void NodeSearchBox::search() {
    if (!snapshot_) {
        Q_EMIT message(tr("Open a store first."));
        return;
    }
    if (text() != lastQuery_) {
        lastQuery_ = text();
        matches_ = findNodes(*snapshot_, lastQuery_);
        next_ = 0;
    }
    if (matches_.empty()) {
        Q_EMIT message(tr("No node matches \"%1\" (name, host, GUID or LID).").arg(lastQuery_));
        return;
    }
    const std::uint32_t node = matches_[next_ % matches_.size()];
    Q_EMIT message(tr("%1: match %2 of %3 for \"%4\"")
                       .arg(QString::fromStdString(snapshot_->fabric.nodes[node].description))
                       .arg(next_ % matches_.size() + 1)
                       .arg(matches_.size())
                       .arg(lastQuery_));
    ++next_;
    Q_EMIT nodeFound(static_cast<int>(node));
}

} // namespace fabscope
