#include "views/help_dialog.h"

#include "core/report/kind_definitions.h"
#include "core/version.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QLabel>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace fabscope {
namespace {

void collect(QMenu* menu, const QString& path, QList<QPair<QString, QString>>& out) {
    for (QAction* a : menu->actions()) {
        if (a->menu()) {
            collect(a->menu(), path + QString(a->menu()->title()).remove(u'&') + QStringLiteral(" > "), out);
            continue;
        }
        if (a->isSeparator() || a->shortcut().isEmpty()) continue;
        QStringList keys;  // every shortcut of the action: Find node is Ctrl+F and Ctrl+K
        for (const QKeySequence& k : a->shortcuts()) keys.append(k.toString(QKeySequence::NativeText));
        out.append({keys.join(QStringLiteral(", ")), path + QString(a->text()).remove(u'&')});
    }
}

} // namespace

ShortcutsDialog::ShortcutsDialog(QMainWindow* window) : QDialog(window) {
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    QList<QPair<QString, QString>> rows;
    for (QAction* a : window->menuBar()->actions())
        if (a->menu()) collect(a->menu(), QString(a->menu()->title()).remove(u'&') + QStringLiteral(" > "), rows);
    const QList<QPair<QString, QString>> keys{
        {tr("Wheel, + / -"), tr("Fabric: zoom")},           {tr("Drag, Shift+Left/Right"), tr("Fabric: pan")},
        {tr("0"), tr("Fabric: fit")},                        {tr("Click"), tr("Fabric: select a node or link")},
        {tr("Space"), tr("Scrubber: play / pause")},         {tr("Left / Right"), tr("Scrubber: one sample back / on")},
        {tr("[ and ]"), tr("Scrubber: analysis window start / end at the cursor")}, {tr("Esc"), tr("Scrubber: clear the window")},
        {tr("Up / Down"), tr("Heatmap: select the link above / below")}, {tr("Delete"), tr("Annotations: remove the selected note")}};
    rows.append(keys);
    auto* table = new QTableWidget(static_cast<int>(rows.size()), 2, this);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({tr("Keys"), tr("Does")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int r = 0; r < rows.size(); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(rows[r].first));
        table->setItem(r, 1, new QTableWidgetItem(rows[r].second));
        text_ += rows[r].first + QStringLiteral("  ") + rows[r].second + u'\n';
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(buttons);
    resize(560, 560);
}

FindingKindsDialog::FindingKindsDialog(const AnalysisConfig& config, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("findingKindsDialog"));
    setWindowTitle(tr("Finding kinds"));
    const auto definitions = kindDefinitions(config);
    auto* table = new QTableWidget(static_cast<int>(definitions.size()), 2, this);
    table->setObjectName(QStringLiteral("findingKindsTable"));
    table->setHorizontalHeaderLabels({tr("Kind"), tr("Means (with the thresholds in force)")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setWordWrap(true);
    for (int r = 0; r < static_cast<int>(definitions.size()); ++r) {
        const auto& [kind, definition] = definitions[static_cast<std::size_t>(r)];
        const QString name = QString::fromLatin1(kindName(kind).data(), static_cast<qsizetype>(kindName(kind).size()));
        table->setItem(r, 0, new QTableWidgetItem(name));
        table->setItem(r, 1, new QTableWidgetItem(QString::fromStdString(definition)));
        text_ += name + QStringLiteral(": ") + QString::fromStdString(definition) + u'\n';
    }
    table->resizeColumnToContents(0);
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeRowsToContents();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("The rules in full: docs/ANALYSIS.md; the same text is in every report's Methods section."), this));
    layout->addWidget(table);
    layout->addWidget(buttons);
    resize(760, 600);
}

void showAbout(QWidget* parent) {
    auto* box = new QMessageBox(QMessageBox::Information, QObject::tr("About FabScope"),
                                QObject::tr("FabScope %1\nFind what slowed the fabric: hot, degraded and erroring links, PFC storms, "
                                            "congestion trees and straggler paths from topology and counter dumps.\n\n"
                                            "User guide: README.md; findings and their thresholds: docs/ANALYSIS.md; "
                                            "formats: docs/FORMATS.md; the CLI: docs/CLI.md.")
                                    .arg(QString::fromLatin1(kVersion)),
                                QMessageBox::Ok, parent);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace fabscope
