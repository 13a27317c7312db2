#pragma once
// The import diagnostics dock: the FILE:LINE messages of the last import (core/diagnostics.h),
// in a lazy table model with the severity and the message; the headline says how the import went.
#include "core/diagnostics.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <vector>

class QLabel;
class QTableView;

namespace fabscope {

class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Location, Severity, Message, ColumnCount };
    explicit DiagnosticsModel(QObject* parent = nullptr);
    void setDiagnostics(std::vector<Diagnostic> list);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Diagnostic> list_;
};

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(QWidget* parent = nullptr);
    void setDiagnostics(const QString& headline, std::vector<Diagnostic> list);
    [[nodiscard]] DiagnosticsModel* model() const { return model_; }
    [[nodiscard]] QTableView* table() const { return table_; }

private:
    DiagnosticsModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* headline_ = nullptr;
};

} // namespace fabscope
