#include "views/recent_stores.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace fabscope {
namespace {
const QString kKey = QStringLiteral("recentStores");
}

RecentStores::RecentStores(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
    menu_->setObjectName(QStringLiteral("recentMenu"));
    rebuild();
}

QStringList RecentStores::paths() const { return QSettings().value(kKey).toStringList(); }

void RecentStores::add(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = paths();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMax) list.removeLast();
    QSettings().setValue(kKey, list);
    rebuild();
}

void RecentStores::clear() {
    QSettings().remove(kKey);
    rebuild();
}

void RecentStores::rebuild() {
    menu_->clear();
    const QStringList list = paths();
    for (int i = 0; i < list.size(); ++i) {
        const QString path = list[i];
        QAction* a = menu_->addAction(tr("&%1 %2").arg(i + 1).arg(QDir::toNativeSeparators(path)));
        a->setObjectName(QStringLiteral("recentStore%1").arg(i + 1));
        if (i < 4) a->setShortcut(QKeySequence(tr("Ctrl+Shift+%1").arg(i + 1)));
        connect(a, &QAction::triggered, this, [this, path] { Q_EMIT openRequested(path); });
    }
    if (list.isEmpty()) menu_->addAction(tr("(none yet)"))->setEnabled(false);
    menu_->addSeparator();
    menu_->addAction(tr("Clear the list"), this, &RecentStores::clear)->setObjectName(QStringLiteral("clearRecent"));
}

} // namespace fabscope
