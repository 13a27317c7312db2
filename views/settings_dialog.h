#pragma once
// Analysis > Thresholds…: edits the per-user analysis config (core's userConfigPath(), the file
// `fabscope analyze` and `report` read when no --config is given), as the JSON overrides of
// docs/ANALYSIS.md. OK checks the JSON and saves it; a bad key or value is shown and nothing is
// saved. Restore defaults empties the overrides.
#include "core/analysis/analysis_config.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;

namespace fabscope {

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(QWidget* parent = nullptr);
    [[nodiscard]] QPlainTextEdit* editor() const { return editor_; }
    // After accept(): the config the saved file gives.
    [[nodiscard]] const AnalysisConfig& config() const { return config_; }

public Q_SLOTS:
    void accept() override;

private:
    QPlainTextEdit* editor_ = nullptr;
    QLabel* error_ = nullptr;
    AnalysisConfig config_;
};

} // namespace fabscope
