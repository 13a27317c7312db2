#pragma once
// Latency matrix dock (pingmesh style): probe hosts x probe hosts, grouped by pod and leaf
// (core/analysis/probe_matrix.h), each cell the pair's p99 RTT (µs) or loss rate (%) over the time
// controller's window. Computed off the GUI thread; a newer request drops older results. A click
// selects the pair's source port and asks for its route on the fabric graph (routeRequested).
#include "core/analysis/probe_matrix.h"
#include "views/finding_focus.h"

#include <QWidget>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace fabscope {

struct StoreSnapshot;
class BackgroundJob;
class SelectionController;
class TimeController;

class LatencyMatrixView : public QWidget {
    Q_OBJECT
public:
    enum class Mode { P99, Loss };
    LatencyMatrixView(TimeController* time, SelectionController* selection, QWidget* parent = nullptr);
    ~LatencyMatrixView() override;

    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    void setMode(Mode mode);
    [[nodiscard]] Mode mode() const { return mode_; }

    // Tests and painting: the matrix shown, a cell's value in the current mode, its rectangle
    // in canvas() coordinates, its tooltip; the selected cell (-1, -1 when none).
    [[nodiscard]] const ProbeMatrix& matrix() const { return matrix_; }
    [[nodiscard]] std::optional<double> cellValue(std::size_t src, std::size_t dst) const;
    [[nodiscard]] QRect cellRect(std::size_t src, std::size_t dst) const;
    [[nodiscard]] QString cellToolTip(std::size_t src, std::size_t dst) const;
    [[nodiscard]] QWidget* canvas() const { return canvas_; }
    [[nodiscard]] QComboBox* modeBox() const { return modeBox_; }
    [[nodiscard]] std::pair<int, int> selectedCell() const { return selected_; }

    void selectCell(std::size_t src, std::size_t dst);

Q_SIGNALS:
    void loaded();                           // after a computed matrix is shown
    void routeRequested(fabscope::FindingFocus route);  // the clicked pair's route, for the fabric view

private:
    void recompute();
    void setMatrix(ProbeMatrix matrix);

    TimeController* time_;
    SelectionController* selection_;
    std::shared_ptr<const StoreSnapshot> snapshot_;
    ProbeMatrix matrix_;
    Mode mode_ = Mode::P99;
    std::pair<int, int> selected_{-1, -1};
    QComboBox* modeBox_ = nullptr;
    QLabel* status_ = nullptr;
    QWidget* canvas_ = nullptr;
    BackgroundJob* job_;  // a newer window or store supersedes the computation under way
};

} // namespace fabscope
