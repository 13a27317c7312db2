#pragma once
// File > Recent: the last stores opened, kept with QSettings ("recentStores"), newest first.
#include <QObject>
#include <QStringList>

class QMenu;

namespace fabscope {

class RecentStores : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 8;
    RecentStores(QMenu* menu, QObject* parent = nullptr);
    [[nodiscard]] QStringList paths() const;
    void add(const QString& path);
    void clear();

Q_SIGNALS:
    void openRequested(const QString& path);

private:
    void rebuild();
    QMenu* menu_;
};

} // namespace fabscope
