#pragma once
// File > Import from Prometheus…: asks for the server URL, the window (local date-times), the
// step in seconds and optional selectors. Only asks; app/ runs the pull.
#include <QDateTime>
#include <QDialog>
#include <QStringList>

class QDateTimeEdit;
class QDialogButtonBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace fabscope {

class PrometheusPullDialog : public QDialog {
    Q_OBJECT
public:
    explicit PrometheusPullDialog(QWidget* parent = nullptr);

    [[nodiscard]] QString url() const;
    [[nodiscard]] QDateTime from() const;
    [[nodiscard]] QDateTime to() const;
    [[nodiscard]] int stepSeconds() const;
    [[nodiscard]] QStringList selectors() const;  // empty: the fabric metrics FabScope knows
    [[nodiscard]] QDialogButtonBox* buttons() const { return buttons_; }
    void setWindow(const QDateTime& from, const QDateTime& to);

private:
    void validate();

    QLineEdit* url_ = nullptr;
    QDateTimeEdit* from_ = nullptr;
    QDateTimeEdit* to_ = nullptr;
    QSpinBox* step_ = nullptr;
    QPlainTextEdit* selectors_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
};

} // namespace fabscope
