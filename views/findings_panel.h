#pragma once
// The findings dock: a filter box over a sortable table of findings. Activating a row (click,
// Enter) emits findingActivated with the finding.
#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QTableView;

namespace fabscope {

struct Finding;
struct FindingsReport;
class FindingsModel;
class FindingsProxy;

class FindingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit FindingsPanel(QWidget* parent = nullptr);
    void setReport(std::shared_ptr<const FindingsReport> report);
    void setBusy(const QString& message);
    [[nodiscard]] QTableView* table() const { return table_; }
    [[nodiscard]] FindingsModel* model() const { return model_; }
    [[nodiscard]] FindingsProxy* proxy() const { return proxy_; }

Q_SIGNALS:
    void findingActivated(const fabscope::Finding& finding);

private:
    void emitCurrent(const QModelIndex& proxyIndex);

    FindingsModel* model_ = nullptr;
    FindingsProxy* proxy_ = nullptr;
    QTableView* table_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QLabel* status_ = nullptr;
    bool restoring_ = false;  // a selection kept across a new report activates nothing
};

} // namespace fabscope
