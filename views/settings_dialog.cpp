#include "views/settings_dialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace fabscope {

SettingsDialog::SettingsDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Analysis thresholds"));
    const QString path = QString::fromStdString(userConfigPath());
    auto* intro = new QLabel(tr("Overrides of the analysis defaults, as JSON (keys, units and defaults: docs/ANALYSIS.md). "
                                "Saved to %1; the GUI, `fabscope analyze` and `fabscope report` use it unless --config "
                                "names another file.")
                                 .arg(path),
                             this);
    intro->setWordWrap(true);
    intro->setTextInteractionFlags(Qt::TextSelectableByMouse);
    editor_ = new QPlainTextEdit(this);
    editor_->setObjectName(QStringLiteral("configEditor"));
    editor_->setAccessibleName(tr("Analysis config JSON"));
    editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QFile file(path);
    editor_->setPlainText(file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll())
                                                         : QStringLiteral("{\n  \"hot_link\": {\"util\": 0.8}\n}\n"));
    error_ = new QLabel(this);
    error_->setObjectName(QStringLiteral("configError"));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #b3261e"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] { editor_->setPlainText(QStringLiteral("{}\n")); });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(editor_, 1);
    layout->addWidget(error_);
    layout->addWidget(buttons);
    resize(640, 480);
}

void SettingsDialog::accept() {
    try {
        config_ = saveUserConfig(editor_->toPlainText().toStdString());
    } catch (const ConfigError& e) {
        error_->setText(tr("Not saved: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    QDialog::accept();
}

} // namespace fabscope
