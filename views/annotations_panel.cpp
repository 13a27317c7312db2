#include "views/annotations_panel.h"

#include "views/background_job.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/time_controller.h"
#include "views/utc_text.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <functional>
#include <set>

namespace fabscope {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString utc(double t) { return utcText(t, QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")); }

struct Loaded {
    std::vector<Annotation> list;
    QString error;
};

PortRef refOf(const StoreSnapshot& s, PortId p) {
    const Port& port = s.fabric.port(p);
    const Node& n = s.fabric.node(port.node);
    return {n.description, n.guid, port.name};
}

} // namespace

AnnotationsModel::AnnotationsModel(QObject* parent) : QAbstractTableModel(parent) {}

void AnnotationsModel::setAnnotations(std::vector<Annotation> list) {
    beginResetModel();
    list_ = std::move(list);
    endResetModel();
}

const Annotation* AnnotationsModel::annotation(int row) const {
    return row >= 0 && static_cast<std::size_t>(row) < list_.size() ? &list_[static_cast<std::size_t>(row)] : nullptr;
}

int AnnotationsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(list_.size()); }
int AnnotationsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant AnnotationsModel::data(const QModelIndex& index, int role) const {
    const Annotation* a = index.isValid() ? annotation(index.row()) : nullptr;
    if (!a) return {};
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Start: return utc(a->start);
        case End: return a->end > a->start ? tr("%1 (%2 s)").arg(utc(a->end)).arg(a->end - a->start) : tr("(instant)");
        case Note: return qs(a->note);
        case Ports: {
            if (a->ports.empty()) return tr("whole fabric");
            QStringList ports;
            for (const PortRef& p : a->ports) ports << tr("%1 p%2").arg(qs(p.node.empty() ? p.guid : p.node), qs(p.port));
            return ports.join(QStringLiteral(", "));
        }
        case Author: return qs(a->author);
        default: break;
        }
    }
    if (role == Qt::UserRole) return QVariant::fromValue(static_cast<qlonglong>(a->id));
    return {};
}

QVariant AnnotationsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Start: return tr("Start (UTC)");
    case End: return tr("End (UTC)");
    case Note: return tr("Note");
    case Ports: return tr("Ports");
    case Author: return tr("Author");
    default: return {};
    }
}

AnnotationsPanel::AnnotationsPanel(SelectionController* selection, TimeController* time, QWidget* parent)
    : QWidget(parent), selection_(selection), time_(time), job_(new BackgroundJob(QStringLiteral("annotationsJob"), this)) {
    setObjectName(QStringLiteral("annotationsPanel"));
    setAccessibleName(tr("Annotations"));
    model_ = new AnnotationsModel(this);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("annotationsTable"));
    table_->setAccessibleName(tr("Annotations list"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->hide();
    note_ = new QLineEdit(this);
    note_->setObjectName(QStringLiteral("annotationNote"));
    note_->setAccessibleName(tr("New annotation text"));
    note_->setPlaceholderText(tr("Note for the current window and the selected ports…"));
    add_ = new QPushButton(tr("&Add note"), this);
    add_->setObjectName(QStringLiteral("addAnnotation"));
    add_->setAccessibleName(tr("Add annotation"));
    add_->setToolTip(tr("Pins the note to the selected time range (else the cursor instant) and the selected ports (Enter)"));
    delete_ = new QPushButton(tr("De&lete"), this);
    delete_->setObjectName(QStringLiteral("deleteAnnotation"));
    delete_->setAccessibleName(tr("Delete selected annotations"));
    delete_->setToolTip(tr("Deletes the selected notes from the store (Delete)"));
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("annotationsStatus"));
    status_->setAccessibleName(tr("Annotations status"));
    auto* row = new QHBoxLayout();
    row->addWidget(note_, 1);
    row->addWidget(add_);
    row->addWidget(delete_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(row);
    layout->addWidget(table_, 1);
    layout->addWidget(status_);
    connect(add_, &QPushButton::clicked, this, &AnnotationsPanel::addNote);
    connect(note_, &QLineEdit::returnPressed, this, &AnnotationsPanel::addNote);
    connect(delete_, &QPushButton::clicked, this, &AnnotationsPanel::deleteSelected);
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& i) {
        if (const Annotation* a = model_->annotation(i.row())) time_->setTime(a->start);
    });
    auto* del = new QAction(tr("Delete annotation"), table_);
    del->setShortcut(QKeySequence::Delete);
    del->setShortcutContext(Qt::WidgetShortcut);
    connect(del, &QAction::triggered, this, &AnnotationsPanel::deleteSelected);
    table_->addAction(del);
    setEnabled(false);
}

void AnnotationsPanel::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    model_->setAnnotations({});
    setEnabled(snapshot_ && !snapshot_->path.empty());
    reload();
}

void AnnotationsPanel::reload() {
    run([](Store&) {}, false);
}

void AnnotationsPanel::addNote() {
    const QString text = note_->text().trimmed();
    if (!snapshot_ || text.isEmpty()) {
        status_->setText(tr("Type a note first."));
        return;
    }
    Annotation a;
    if (auto range = time_->selection()) a.start = range->start, a.end = range->end;
    else a.start = a.end = time_->time();
    a.note = text.toStdString();
    a.author = qEnvironmentVariable("USER").toStdString();
    const auto& f = snapshot_->fabric;
    if (const int l = selection_->link(); l >= 0) {
        a.ports = {refOf(*snapshot_, f.links[static_cast<std::size_t>(l)].a), refOf(*snapshot_, f.links[static_cast<std::size_t>(l)].b)};
    } else if (const int p = selection_->port(); p >= 0) {
        a.ports = {refOf(*snapshot_, PortId(static_cast<std::size_t>(p)))};
    }
    note_->clear();
    run([a](Store& s) { addAnnotation(s, a); }, true);
}

void AnnotationsPanel::deleteSelected() {
    std::vector<std::int64_t> ids;
    for (const QModelIndex& i : table_->selectionModel()->selectedRows())
        if (const Annotation* a = model_->annotation(i.row())) ids.push_back(a->id);
    if (ids.empty()) return;
    run([ids](Store& s) {
        for (auto id : ids) removeAnnotation(s, id);
    }, true);
}

void AnnotationsPanel::run(std::function<void(Store&)> work, bool writes) {
    if (!snapshot_ || snapshot_->path.empty()) return;
    // A write always runs to its end; only the newest run's list is shown (it reloads anyway).
    job_->run(
        [path = snapshot_->path, work = std::move(work), writes](const JobToken&) {
            Loaded r;
            try {
                if (writes) {
                    Store s(path);
                    work(s);
                    r.list = annotations(s);
                } else {
                    const Store s(path, Store::Mode::ReadOnly);
                    r.list = annotations(s);
                }
            } catch (const std::exception& e) {
                r.error = tr("Annotations: %1").arg(QString::fromUtf8(e.what()));
            }
            return r;
        },
        [this](Loaded r) {
            if (!r.error.isEmpty()) {
                status_->setText(r.error);
                Q_EMIT failed(r.error);
            } else {
                status_->setText(tr("%n note(s) in the store", nullptr, static_cast<int>(r.list.size())));
            }
            model_->setAnnotations(std::move(r.list));
            Q_EMIT annotationsChanged();
        });
}

} // namespace fabscope
