// Every view and control of the main window has an accessible name and an object name, so a
// screen reader (AT-SPI) announces it and tests and settings can find it. Walks every child
// widget of the window with a store open (so the docks are populated) and names the offenders.
#include "app/main_window.h"
#include "core/demo_fabric.h"
#include "importers/import_runner.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace fabscope;

namespace {

// Qt's own sub-controls (scroll-area containers, dock title buttons, toolbar extension buttons)
// are named "qt_*" by Qt and announced through their owner.
bool isQtInternal(const QWidget* w) {
    for (; w; w = w->parentWidget())
        if (w->objectName().startsWith(QLatin1String("qt_"))) return true;
    return false;
}

// Something a user operates or reads a view through: buttons (tool buttons of actions included),
// combos, sliders, spin boxes, line edits, item views, and FabScope's own views (focusable
// widgets that paint themselves).
bool isInteractive(const QWidget* w) {
    if (qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QComboBox*>(w) || qobject_cast<const QAbstractSpinBox*>(w) ||
        qobject_cast<const QLineEdit*>(w) || qobject_cast<const QAbstractItemView*>(w))
        return true;
    if (qobject_cast<const QAbstractSlider*>(w)) return !qobject_cast<const QScrollBar*>(w);
    return w->focusPolicy() != Qt::NoFocus && QString::fromLatin1(w->metaObject()->className()).startsWith(QLatin1String("fabscope::"));
}

// Sub-controls of a control are one accessible object with it: a combo's line edit and popup
// list, a spin box's line edit, a line edit's clear button, a table's headers and corner button.
bool isPartOfOwner(const QWidget* w) {
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (qobject_cast<const QComboBox*>(p) || qobject_cast<const QAbstractSpinBox*>(p) || qobject_cast<const QLineEdit*>(p) ||
            qobject_cast<const QAbstractItemView*>(p))
            return true;
    return false;
}

QString describe(const QWidget* w) {
    QString path;
    for (const QWidget* p = w; p; p = p->parentWidget())
        path.prepend(QStringLiteral("/%1(%2)").arg(QString::fromLatin1(p->metaObject()->className()), p->objectName()));
    return path;
}

struct Walk {
    QStringList unnamed, noObjectName;
    int checked = 0;
};

Walk walk(const QWidget& root) {
    Walk out;
    for (QWidget* c : root.findChildren<QWidget*>()) {
        if (!isInteractive(c) || isQtInternal(c) || isPartOfOwner(c)) continue;
        ++out.checked;
        if (c->accessibleName().trimmed().isEmpty()) out.unnamed << describe(c);
        if (c->objectName().isEmpty()) out.noObjectName << describe(c);
    }
    return out;
}

} // namespace

class TestAccessibility : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void everyInteractiveWidgetHasAnAccessibleAndAnObjectName() {
        const std::string demo = dir_.filePath(QStringLiteral("demo")).toStdString();
        const QString store = dir_.filePath(QStringLiteral("demo.sqlite"));
        DemoOptions opt;
        opt.samples = 20;
        writeDemo(demo, opt);
        {
            Store s(store.toStdString());
            ImporterRegistry reg;
            QVERIFY(!ImportRunner(s, reg).run({demo}, {}).anyFailed());
        }
        MainWindow w;
        w.show();
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        w.openStore(store);
        QVERIFY(loaded.wait(20000));

        const auto [unnamed, noObjectName, checked] = walk(w);
        QVERIFY2(unnamed.isEmpty(), qPrintable(QStringLiteral("no accessible name:\n") + unnamed.join(QLatin1Char('\n'))));
        QVERIFY2(noObjectName.isEmpty(), qPrintable(QStringLiteral("no object name:\n") + noObjectName.join(QLatin1Char('\n'))));
        // The walk saw the window's controls: fabric, heatmap, findings table, slider, combos.
        QVERIFY2(checked >= 8, qPrintable(QString::number(checked)));
        // And the walk does catch a control added without names.
        auto* bare = new QPushButton(QStringLiteral("Go"), w.centralWidget());
        const Walk after = walk(w);
        QCOMPARE(after.unnamed.size(), 1);
        QCOMPARE(after.noObjectName.size(), 1);
        QVERIFY(after.unnamed.front().endsWith(QStringLiteral("QPushButton()")));
        delete bare;
    }
};

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
