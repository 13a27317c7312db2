#pragma once
// File > Compare… (Ctrl+Shift+C): what to compare the open store with. Either another store, as
// the good run (the open one is the bad run, the usual case) or as the bad run, each over its
// whole span; or two time windows of the open store, in UTC with the date, by default its
// span's first half (good) and second half (bad).
#include "core/time_range.h"
#include "views/compare_colouring.h"

#include <QDialog>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace fabscope {

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    // `openStore`: the store in the window; `span`: its sample span (the windows' defaults).
    CompareDialog(const QString& openStore, TimeRange span, QWidget* parent = nullptr);

    [[nodiscard]] CompareRequest request() const;
    // Tests and callers that know what to compare.
    void useOtherStore(const QString& path, bool otherIsGood);
    void useWindows(TimeRange good, TimeRange bad);
    [[nodiscard]] QString problem() const;  // why OK is disabled, empty when it is not

private:
    void chooseStore();
    void update();

    QString openStore_;
    QRadioButton* storeMode_ = nullptr;
    QRadioButton* windowMode_ = nullptr;
    QLineEdit* otherPath_ = nullptr;
    QPushButton* browse_ = nullptr;
    QComboBox* role_ = nullptr;
    QDateTimeEdit* goodFrom_ = nullptr;
    QDateTimeEdit* goodTo_ = nullptr;
    QDateTimeEdit* badFrom_ = nullptr;
    QDateTimeEdit* badTo_ = nullptr;
    QLabel* problem_ = nullptr;
    QPushButton* ok_ = nullptr;
};

} // namespace fabscope
