#pragma once
// The annotations dock: notes pinned to a time range and optionally to ports, kept in the store
// (core/store/annotations.h) so reports carry them. Add pins the note to the current window
// (the selected range, else the cursor instant) and the selected ports; Delete removes the
// selected notes; activating a note moves the cursor to its start. Store access runs on a worker.
#include "core/store/annotations.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace fabscope {

struct StoreSnapshot;
class SelectionController;
class TimeController;
class BackgroundJob;

class AnnotationsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Note, Start, End, Ports, Author, ColumnCount };
    explicit AnnotationsModel(QObject* parent = nullptr);
    void setAnnotations(std::vector<Annotation> list);
    [[nodiscard]] const Annotation* annotation(int row) const;
    [[nodiscard]] const std::vector<Annotation>& annotations() const { return list_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Annotation> list_;
};

class AnnotationsPanel : public QWidget {
    Q_OBJECT
public:
    AnnotationsPanel(SelectionController* selection, TimeController* time, QWidget* parent = nullptr);
    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    [[nodiscard]] AnnotationsModel* model() const { return model_; }
    [[nodiscard]] QTableView* table() const { return table_; }
    [[nodiscard]] QLineEdit* noteEdit() const { return note_; }
    [[nodiscard]] QPushButton* addButton() const { return add_; }

public Q_SLOTS:
    void addNote();
    void deleteSelected();
    void reload();

Q_SIGNALS:
    void annotationsChanged();  // the list was (re)loaded from the store
    void failed(const QString& message);

private:
    // Runs `work` on a store of its own on a worker, then shows the store's annotations.
    void run(std::function<void(Store&)> work, bool writes);

    SelectionController* selection_;
    TimeController* time_;
    std::shared_ptr<const StoreSnapshot> snapshot_;
    AnnotationsModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    QLineEdit* note_ = nullptr;
    QPushButton* add_ = nullptr;
    QPushButton* delete_ = nullptr;
    QLabel* status_ = nullptr;
    BackgroundJob* job_;
};

} // namespace fabscope
