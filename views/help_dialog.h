#pragma once
// Help > Keyboard shortcuts (F1): every action of the window's menus with its shortcut, read from
// the menus themselves so the list cannot go stale, plus the keys of the fabric view and scrubber.
// Help > Finding kinds: what each finding kind means. Help > About: the version and the docs.
#include <QDialog>

class QMainWindow;

namespace fabscope {

struct AnalysisConfig;

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QMainWindow* window);
    [[nodiscard]] QString text() const { return text_; }  // the listed shortcuts, one "keys  action" per line

private:
    QString text_;
};

// Help > Finding kinds: what each kind of finding means, with the thresholds the window analyses
// with: the same definitions as the report's Methods section (core/report/kind_definitions.h).
class FindingKindsDialog : public QDialog {
    Q_OBJECT
public:
    FindingKindsDialog(const AnalysisConfig& config, QWidget* parent);
    [[nodiscard]] QString text() const { return text_; }  // "kind: definition" per line

private:
    QString text_;
};

void showAbout(QWidget* parent);

} // namespace fabscope
