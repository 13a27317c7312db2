#include "views/import_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace fabscope {
namespace {

// Families for the file dialog's filter; the names are what the tools usually write.
const char* const kFilters =
    "All files (*);;"
    "InfiniBand diagnostics (*.txt *.out *.log *.lst *.db_csv *.fdbs *.cables *.net_dump_ext *.pm *.ibnetdiscover *.iblinkinfo);;"
    "Counters and telemetry (*.csv *.json *.prom *.txt *.out);;"
    "NCCL logs and benchmarks (*.log *.txt *.out);;"
    "LLDP and Ethernet (*.json *.txt *.out)";

} // namespace

ImportDialog::ImportDialog(const QStringList& formats, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Import files"));
    setObjectName(QStringLiteral("importDialog"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Files and folders to import (a folder is read whole, e.g. an ibdiagnet2 output folder):"), this));
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("importFiles"));
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    layout->addWidget(list_, 1);
    auto* buttons = new QHBoxLayout;
    auto* addFiles = new QPushButton(tr("Add &files…"), this);
    auto* addFolder = new QPushButton(tr("Add f&older…"), this);
    auto* remove = new QPushButton(tr("&Remove"), this);
    remove->setShortcut(QKeySequence::Delete);
    buttons->addWidget(addFiles);
    buttons->addWidget(addFolder);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    auto* form = new QFormLayout;
    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("importFormat"));
    format_->addItem(tr("Automatic (detect from content)"), QString());
    for (const QString& f : formats) format_->addItem(f, f);
    format_->setToolTip(tr("Force one format for every file when detection picks the wrong one or none "
                           "(the same names as fabscope import --format)"));
    form->addRow(tr("F&ormat:"), format_);
    layout->addLayout(form);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    box->button(QDialogButtonBox::Ok)->setText(tr("&Import"));
    layout->addWidget(box);
    connect(addFiles, &QPushButton::clicked, this, &ImportDialog::addFiles);
    connect(addFolder, &QPushButton::clicked, this, &ImportDialog::addFolder);
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(list_->selectedItems());
        updateOk();
    });
    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(640, 420);
    updateOk();
}

void ImportDialog::setFiles(const QStringList& files) {
    list_->clear();
    list_->addItems(files);
    updateOk();
}

QStringList ImportDialog::files() const {
    QStringList out;
    for (int i = 0; i < list_->count(); ++i) out << list_->item(i)->text();
    return out;
}

QString ImportDialog::format() const { return format_->currentData().toString(); }

void ImportDialog::addFiles() {
    list_->addItems(QFileDialog::getOpenFileNames(this, tr("Import fabric data"), QString(), tr(kFilters)));
    updateOk();
}

void ImportDialog::addFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Import a folder"));
    if (!dir.isEmpty()) list_->addItem(dir);
    updateOk();
}

void ImportDialog::updateOk() {
    if (auto* box = findChild<QDialogButtonBox*>()) box->button(QDialogButtonBox::Ok)->setEnabled(list_->count() > 0);
}

} // namespace fabscope
