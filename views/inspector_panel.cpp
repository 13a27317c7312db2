#include "views/inspector_panel.h"

#include "core/analysis/format.h"
#include "core/linkrate.h"
#include "core/store/store.h"
#include "views/background_job.h"
#include "views/colour_scale.h"
#include "views/counter_probe.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/time_controller.h"
#include "views/utc_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <cmath>
#include <functional>
#include <map>
#include <mutex>
#include <set>

namespace fabscope {
namespace {

constexpr int kTargetRole = Qt::UserRole + 1;  // "n:3" / "p:12": activating the row selects it

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString stateName(PortState s) {
    switch (s) {
    case PortState::Down: return QObject::tr("Down");
    case PortState::Init: return QObject::tr("Init");
    case PortState::Armed: return QObject::tr("Armed");
    case PortState::Active: return QObject::tr("Active");
    case PortState::Unknown: break;
    }
    return QObject::tr("unknown");
}

QString gbps(std::uint64_t bps) {
    if (bps == 0) return QObject::tr("unknown");
    return QObject::tr("%1 Gb/s").arg(QString::number(static_cast<double>(bps) / 1e9, 'g', 4));
}

QString utc(double t) { return utcText(t, QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")); }

QString nodeName(const Node& n) { return qs(n.description.empty() ? n.guid : n.description); }

struct CounterResult {
    std::vector<CounterReading> readings;
    QString error;
};

} // namespace

InspectorPanel::InspectorPanel(SelectionController* selection, TimeController* time, QWidget* parent)
    : QWidget(parent), selection_(selection), time_(time), countersJob_(new BackgroundJob(QStringLiteral("countersJob"), this)),
      counterIndex_(std::make_shared<CounterIndexCache>()) {
    setObjectName(QStringLiteral("inspectorPanel"));
    setAccessibleName(tr("Inspector"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    title_ = new QLabel(tr("Nothing selected: click a node or a link."), this);
    title_->setObjectName(QStringLiteral("inspectorTitle"));
    title_->setAccessibleName(tr("Inspector selection"));
    title_->setWordWrap(true);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    model_ = new QStandardItemModel(this);
    model_->setHorizontalHeaderLabels({tr("Property"), tr("Value")});
    tree_ = new QTreeView(this);
    tree_->setObjectName(QStringLiteral("inspectorTree"));
    tree_->setAccessibleName(tr("Inspector details"));
    tree_->setModel(model_);
    tree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(true);
    layout->addWidget(title_);
    layout->addWidget(tree_, 1);

    connect(selection_, &SelectionController::changed, this, &InspectorPanel::rebuild);
    connect(time_, &TimeController::cursorChanged, this, &InspectorPanel::updateRates);
    connect(time_, &TimeController::cursorSettled, this, &InspectorPanel::requestCounters);
    connect(tree_, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const QString target = index.siblingAtColumn(0).data(kTargetRole).toString();
        if (target.size() < 3) return;
        const int i = target.mid(2).toInt();
        if (target.startsWith(QLatin1Char('n'))) selection_->selectNode(i);
        else if (target.startsWith(QLatin1Char('p'))) selection_->selectPort(i);
        else if (target.startsWith(QLatin1Char('l'))) selection_->selectLink(i);
    });
}

InspectorPanel::~InspectorPanel() = default;

void InspectorPanel::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    counterIndex_ = std::make_shared<CounterIndexCache>();  // of the snapshot replaced
    rebuild();
}

QStandardItem* InspectorPanel::section(const QString& title) {
    auto* item = new QStandardItem(title);
    QFont f = item->font();
    f.setBold(true);
    item->setFont(f);
    model_->appendRow({item, new QStandardItem()});
    tree_->setFirstColumnSpanned(item->row(), QModelIndex(), true);
    expand(item);
    return item;
}

QStandardItem* InspectorPanel::row(QStandardItem* parent, const QString& key, const QString& value) {
    auto* item = new QStandardItem(key);
    auto* v = new QStandardItem(value);
    v->setToolTip(value);
    parent->appendRow({item, v});
    return item;
}

void InspectorPanel::expand(QStandardItem* item, bool expanded) { tree_->setExpanded(item->index(), expanded); }

void InspectorPanel::addNode(QStandardItem* s, int node) {
    const auto& f = snapshot_->fabric;
    const Node& n = f.nodes[static_cast<std::size_t>(node)];
    row(s, tr("Description"), qs(n.description));
    if (!n.systemName.empty() && n.systemName != n.description) row(s, tr("System name"), qs(n.systemName));
    row(s, tr("Type"), QString::fromUtf8(toString(n.type).data()));
    row(s, tr("GUID"), n.guid.empty() ? tr("none") : qs(n.guid));
    row(s, tr("Tier"), QString::number(snapshot_->tiers[static_cast<std::size_t>(node)]));
    row(s, tr("LID"), n.lid ? QString::number(n.lid) : tr("unknown"));
    row(s, tr("Ports"), tr("%1 (%2 connected)")
                            .arg(n.numPorts)
                            .arg(std::count_if(f.ports.begin(), f.ports.end(),
                                               [&](const Port& p) { return p.node.value() == static_cast<std::uint32_t>(node); })));
}

void InspectorPanel::addPort(QStandardItem* s, int port) {
    const auto& f = snapshot_->fabric;
    const Port& p = f.ports[static_cast<std::size_t>(port)];
    const Node& n = f.node(p.node);
    auto* nodeRow = row(s, tr("Node"), nodeName(n));
    nodeRow->setData(QStringLiteral("n:%1").arg(p.node.value()), kTargetRole);
    row(s, tr("Node type"), QString::fromUtf8(toString(n.type).data()));
    row(s, tr("Node GUID"), n.guid.empty() ? tr("none") : qs(n.guid));
    row(s, tr("Tier"), QString::number(snapshot_->tiers[p.node.value()]));
    row(s, tr("Port"), qs(p.name));
    if (!p.portGuid.empty()) row(s, tr("Port GUID"), qs(p.portGuid));
    row(s, tr("LID"), p.lid ? QString::number(p.lid) : (n.lid ? tr("%1 (switch)").arg(n.lid) : tr("unknown")));
    row(s, tr("Width/speed"), qs(widthSpeedLabel(p.width, p.speed)));
    row(s, tr("Capacity"), gbps(p.capacityBps));
    row(s, tr("State"), stateName(p.state));
    addModule(s, port);
    addBitErrors(s, port);
}

void InspectorPanel::addEvents(int node, const std::string* port, const QString& about) {
    const auto it = snapshot_->events.find(static_cast<std::uint32_t>(node));
    if (it == snapshot_->events.end()) return;
    // One section per tool that reported something here ("ibdiagnet reported (2)", "ibswinfo reported (1)").
    std::map<std::string, std::vector<const FabricEvent*>> byTool;
    for (const FabricEvent& e : it->second)
        if (!port || e.port.empty() || e.port == *port) byTool[e.tool].push_back(&e);
    for (const auto& [tool, shown] : byTool) {
        auto* s = section(about.isEmpty() ? tr("%1 reported (%2)").arg(qs(tool)).arg(shown.size())
                                          : tr("%1 reported on %2 (%3)").arg(qs(tool), about).arg(shown.size()));
        for (const FabricEvent* e : shown) {
            const QString key = (e->error ? tr("error %1") : tr("warning %1")).arg(qs(e->name)) + (e->port.empty() ? QString() : tr(", port %1").arg(qs(e->port)));
            const QString where = tool == "ibdiagnet" ? tr("ibdiagnet2.db_csv line %1, section %2%3")
                                                            .arg(e->line)
                                                            .arg(e->error ? QStringLiteral("ERRORS_") : QStringLiteral("WARNINGS_"), qs(e->check))
                                                      : tr("%1 output line %2").arg(qs(tool)).arg(e->line);
            row(s, key, qs(e->summary))->setToolTip(where);
        }
    }
}

void InspectorPanel::addModule(QStandardItem* s, int port) {
    const auto it = snapshot_->optics.find(static_cast<std::uint32_t>(port));
    if (it == snapshot_->optics.end()) return;
    const PortOptics& o = it->second;
    QStringList name;
    for (const std::string* part : {&o.vendor, &o.partNumber, &o.type})
        if (!part->empty()) name << qs(*part);
    auto* m = row(s, tr("Module"), name.isEmpty() ? tr("unnamed") : name.join(QLatin1Char(' ')));
    m->setToolTip(tr("What the port's optic or cable reported to ibdiagnet (ibdiagnet2.cables, line %1)").arg(o.line));
    if (!o.serial.empty()) row(m, tr("Serial number"), qs(o.serial));
    if (!o.length.empty()) row(m, tr("Length"), qs(o.length));
    if (!o.firmware.empty()) row(m, tr("Firmware"), qs(o.firmware));
    if (o.temperatureC)
        row(m, tr("Temperature"), o.temperatureAlarmC ? tr("%1 °C (alarm at %2 °C)").arg(*o.temperatureC).arg(*o.temperatureAlarmC)
                                                      : tr("%1 °C").arg(*o.temperatureC));
    else
        row(m, tr("Temperature"), tr("no sensor (a passive cable)"));
    auto lanes = [&](const QString& key, const std::vector<std::optional<double>>& values, const QString& unit, int decimals) {
        if (values.empty()) return;
        QStringList text;
        for (const auto& v : values) text << (v ? QString::number(*v, 'f', decimals) : QStringLiteral("—"));
        row(m, key, tr("%1 %2").arg(text.join(QStringLiteral(", ")), unit))->setToolTip(tr("Per lane, lane 1 first; — where the module gave no reading"));
    };
    lanes(tr("RX power"), o.rxPowerDbm, tr("dBm"), 2);
    lanes(tr("TX power"), o.txPowerDbm, tr("dBm"), 2);
    lanes(tr("TX bias"), o.txBiasMa, tr("mA"), 2);
    row(m, tr("Flags set"), o.alarms.empty() ? tr("none") : qs(o.alarms.front()));
    for (std::size_t i = 1; i < o.alarms.size(); ++i) row(m, QString(), qs(o.alarms[i]));
    expand(m);
}

void InspectorPanel::addBitErrors(QStandardItem* s, int port) {
    const auto it = snapshot_->ber.find(static_cast<std::uint32_t>(port));
    if (it == snapshot_->ber.end()) return;
    const PortBer& b = it->second;
    const QString source = tr("As ibdiagnet read the port's physical layer (ibdiagnet2.net_dump_ext, line %1)").arg(b.line);
    auto ber = [](const std::optional<double>& v) { return v ? qs(numfmt::ber(*v)) : tr("not read"); };
    auto* m = row(s, tr("Bit error rate"), tr("%1 after FEC").arg(ber(b.effectiveBer)));
    m->setToolTip(source);
    row(m, tr("FEC"), b.fecMode.empty() ? tr("not reported") : qs(b.fecMode))->setToolTip(source);
    row(m, tr("Before FEC (raw)"), ber(b.rawBer))->setToolTip(tr("Errors per bit before forward error correction; PAM4 links run well above 1e-12 here by design"));
    row(m, tr("After FEC (effective)"), ber(b.effectiveBer))->setToolTip(tr("Errors per bit FEC could not correct"));
    row(m, tr("After FEC and retransmission (symbol)"), ber(b.symbolBer))->setToolTip(tr("Errors per bit left after FEC and link-level retransmission"));
    if (b.symbolErrors) row(m, tr("Symbol errors"), QString::number(*b.symbolErrors));
    if (b.effectiveErrors) row(m, tr("Effective errors"), QString::number(*b.effectiveErrors));
    expand(m);
}

void InspectorPanel::addRates(QStandardItem* parent, int link) {
    // A link whose speed changed between the store's snapshots: the utilisation below is of the
    // speed at the cursor, which the Link section's one capacity does not give.
    if (snapshot_->capacityVaries(LinkId(static_cast<std::size_t>(link)))) {
        QStandardItem* key = row(parent, tr("Capacity at the cursor"), QString());
        rateRows_.push_back({parent->child(key->row(), 1), link, kCapacityRow});
    }
    // Throughput in Gb/s first: a RoCE link without a port speed has no utilisation, only its rate.
    for (int m : {static_cast<int>(LinkMetric::ThroughputUp), static_cast<int>(LinkMetric::ThroughputDown),
                  static_cast<int>(LinkMetric::UtilUp), static_cast<int>(LinkMetric::UtilDown), static_cast<int>(LinkMetric::XmitWait),
                  static_cast<int>(LinkMetric::Errors), static_cast<int>(LinkMetric::PfcPauseUp),
                  static_cast<int>(LinkMetric::PfcPauseDown), static_cast<int>(LinkMetric::EcnCnp)}) {
        const auto metric = static_cast<LinkMetric>(m);
        const bool roce = metric == LinkMetric::PfcPauseUp || metric == LinkMetric::PfcPauseDown || metric == LinkMetric::EcnCnp;
        if (roce && !snapshot_->rates.has(metric)) continue;  // RoCE counters: listed only when the store has them
        const QString name = QString::fromUtf8(metricName(static_cast<LinkMetric>(m)).data());
        QStandardItem* key = row(parent, name, QString());
        rateRows_.push_back({parent->child(key->row(), 1), link, m});
    }
}

void InspectorPanel::addNeighbours(int node) {
    const auto& f = snapshot_->fabric;
    std::map<std::uint32_t, int> peers;  // node -> links to it
    for (const Link& l : f.links) {
        const auto a = f.port(l.a).node.value(), b = f.port(l.b).node.value();
        if (a == static_cast<std::uint32_t>(node)) ++peers[b];
        else if (b == static_cast<std::uint32_t>(node)) ++peers[a];
    }
    auto* s = section(tr("Neighbours (%1)").arg(peers.size()));
    for (const auto& [peer, count] : peers) {
        auto* item = row(s, nodeName(f.nodes[peer]),
                         tr("tier %1, %n link(s)", nullptr, count).arg(snapshot_->tiers[peer]));
        item->setData(QStringLiteral("n:%1").arg(peer), kTargetRole);
    }
    if (peers.size() > 12) expand(s, false);
}

std::vector<int> InspectorPanel::selectedPorts() const {
    std::vector<int> out;
    if (!snapshot_) return out;
    const auto& f = snapshot_->fabric;
    switch (selection_->kind()) {
    case SelectionController::Kind::Node:
        for (std::size_t i = 0; i < f.ports.size(); ++i)
            if (f.ports[i].node.value() == static_cast<std::uint32_t>(selection_->node())) out.push_back(static_cast<int>(i));
        break;
    case SelectionController::Kind::Port: out.push_back(selection_->port()); break;
    case SelectionController::Kind::Link: {
        const Link& l = f.links[static_cast<std::size_t>(selection_->link())];
        out = {static_cast<int>(l.a.value()), static_cast<int>(l.b.value())};
        break;
    }
    case SelectionController::Kind::None: break;
    }
    return out;
}

void InspectorPanel::rebuild() {
    countersJob_->drop();  // a read for the rows being replaced
    model_->removeRows(0, model_->rowCount());
    rateRows_.clear();
    counters_ = nullptr;
    const int i = selection_->index();
    if (!snapshot_ || i < 0) {
        title_->setText(tr("Nothing selected: click a node or a link."));
        return;
    }
    const auto& f = snapshot_->fabric;
    switch (selection_->kind()) {
    case SelectionController::Kind::Node: {
        if (static_cast<std::size_t>(i) >= f.nodes.size()) return;
        title_->setText(tr("<b>Node</b> %1").arg(nodeName(f.nodes[static_cast<std::size_t>(i)]).toHtmlEscaped()));
        addNode(section(tr("Node")), i);
        auto* ports = section(tr("Connected ports"));
        for (int p : selectedPorts()) {
            const Port& port = f.ports[static_cast<std::size_t>(p)];
            QString peer = tr("not on a link");
            if (auto l = snapshot_->linkOf(PortId(static_cast<std::size_t>(p)))) {
                const Link& link = f.link(*l);
                peer = qs(snapshot_->portLabel(link.a.value() == static_cast<std::uint32_t>(p) ? link.b : link.a));
            }
            auto* item = row(ports, tr("Port %1").arg(qs(port.name)),
                             tr("%1, %2, %3 → %4").arg(qs(widthSpeedLabel(port.width, port.speed)), gbps(port.capacityBps), stateName(port.state), peer));
            item->setData(QStringLiteral("p:%1").arg(p), kTargetRole);
        }
        if (ports->rowCount() > 16) expand(ports, false);
        addEvents(i, nullptr);
        addNeighbours(i);
        break;
    }
    case SelectionController::Kind::Port: {
        if (static_cast<std::size_t>(i) >= f.ports.size()) return;
        const PortId pid(static_cast<std::size_t>(i));
        title_->setText(tr("<b>Port</b> %1").arg(qs(snapshot_->portLabel(pid)).toHtmlEscaped()));
        addPort(section(tr("Port")), i);
        if (auto l = snapshot_->linkOf(pid)) {
            const Link& link = f.link(*l);
            auto* s = section(tr("Link"));
            const PortId peer = link.a == pid ? link.b : link.a;
            auto* peerRow = row(s, tr("Peer port"), qs(snapshot_->portLabel(peer)));
            peerRow->setData(QStringLiteral("p:%1").arg(peer.value()), kTargetRole);
            auto* linkRow = row(s, tr("Link"), qs(snapshot_->linkLabel(*l)));
            linkRow->setData(QStringLiteral("l:%1").arg(l->value()), kTargetRole);
            row(s, tr("Link capacity"), gbps(link.capacityBps));
            addRates(section(tr("Link rates at the cursor")), static_cast<int>(l->value()));
        }
        addEvents(static_cast<int>(f.port(pid).node.value()), &f.port(pid).name);
        addNeighbours(static_cast<int>(f.port(pid).node.value()));
        break;
    }
    case SelectionController::Kind::Link: {
        if (static_cast<std::size_t>(i) >= f.links.size()) return;
        const LinkId lid(static_cast<std::size_t>(i));
        const Link& link = f.link(lid);
        title_->setText(tr("<b>Link</b> %1").arg(qs(snapshot_->linkLabel(lid)).toHtmlEscaped()));
        auto* s = section(tr("Link"));
        row(s, tr("Ends"), qs(snapshot_->linkLabel(lid)));
        row(s, tr("Width/speed"), qs(widthSpeedLabel(link.width, link.speed)));
        row(s, tr("Capacity"), gbps(link.capacityBps));
        row(s, tr("Seen from both ends"), link.seenFromBothEnds ? tr("yes") : tr("no"));
        const bool upIsAtoB = snapshot_->rates.upIsAtoB.empty() || snapshot_->rates.upIsAtoB[static_cast<std::size_t>(i)];
        row(s, tr("Up direction"), tr("%1 → %2").arg(qs(snapshot_->portLabel(upIsAtoB ? link.a : link.b)),
                                                      qs(snapshot_->portLabel(upIsAtoB ? link.b : link.a))));
        addRates(section(tr("Rates at the cursor")), i);
        auto* a = section(tr("Port A"));
        a->setData(QStringLiteral("p:%1").arg(link.a.value()), kTargetRole);
        addPort(a, static_cast<int>(link.a.value()));
        auto* b = section(tr("Port B"));
        b->setData(QStringLiteral("p:%1").arg(link.b.value()), kTargetRole);
        addPort(b, static_cast<int>(link.b.value()));
        for (PortId p : {link.a, link.b})
            addEvents(static_cast<int>(f.port(p).node.value()), &f.port(p).name, qs(snapshot_->portLabel(p)));
        auto* n = section(tr("Neighbours (2)"));
        for (PortId p : {link.a, link.b}) {
            const auto node = f.port(p).node.value();
            auto* item = row(n, nodeName(f.nodes[node]), tr("tier %1").arg(snapshot_->tiers[node]));
            item->setData(QStringLiteral("n:%1").arg(node), kTargetRole);
        }
        break;
    }
    case SelectionController::Kind::None: return;
    }
    counters_ = section(tr("Raw counters at the cursor"));
    row(counters_, tr("(reading…)"), QString());
    updateRates();
    requestCounters();
}

void InspectorPanel::updateRates() {
    if (!snapshot_ || rateRows_.empty()) return;
    const auto& rates = snapshot_->rates;
    const int bin = rates.binAt(time_->time());
    for (const RateRow& r : rateRows_) {
        if (r.metric == kCapacityRow) {
            const auto [up, down] = snapshot_->capacityGbpsAt(LinkId(static_cast<std::size_t>(r.link)), time_->time());
            r.item->setText(up == down ? tr("%1 Gb/s").arg(up, 0, 'g', 4) : tr("up %1 Gb/s, down %2 Gb/s").arg(up, 0, 'g', 4).arg(down, 0, 'g', 4));
            continue;
        }
        const auto m = static_cast<LinkMetric>(r.metric);
        const float v = bin < 0 || rates.empty() ? std::nanf("") : rates.value(m, static_cast<std::size_t>(r.link), static_cast<std::size_t>(bin));
        r.item->setText(ColourScale(m).format(static_cast<double>(v)));
    }
}

void InspectorPanel::requestCounters() {
    if (!snapshot_ || !counters_ || snapshot_->path.empty() || !snapshot_->snapshotId) {
        if (counters_) {
            counters_->removeRows(0, counters_->rowCount());
            row(counters_, tr("(no store: counters are not available)"), QString());
        }
        return;
    }
    std::vector<PortId> ports;
    for (int p : selectedPorts()) ports.emplace_back(static_cast<std::size_t>(p));
    countersJob_->run(
        [snap = snapshot_, cache = counterIndex_, ports, t = time_->time()](const JobToken&) {
            CounterResult r;
            try {
                const Store store(snap->path, Store::Mode::ReadOnly);
                std::shared_ptr<const CounterIndex> index;
                {
                    const std::lock_guard lock(cache->mutex);
                    index = cache->index;
                }
                if (!index) {  // built once per snapshot, kept even when this read turns out stale
                    index = std::make_shared<const CounterIndex>(buildCounterIndex(store, snap->snapshotId, snap->fabric));
                    const std::lock_guard lock(cache->mutex);
                    cache->index = index;
                }
                r.readings = readCountersAt(store, *index, ports, t);
            } catch (const std::exception& e) {
                r.error = QString::fromUtf8(e.what());
            }
            return r;
        },
        [this](const CounterResult& r) { showCounters(r.readings, r.error); });
}

void InspectorPanel::showCounters(const std::vector<CounterReading>& readings, const QString& error) {
    if (!counters_) return;
    counters_->removeRows(0, counters_->rowCount());
    if (!error.isEmpty()) row(counters_, tr("(cannot read: %1)").arg(error), QString());
    else if (readings.empty()) row(counters_, tr("(no counters recorded for these ports)"), QString());
    const bool manyPorts = selection_->kind() != SelectionController::Kind::Port;
    std::map<std::uint32_t, QStandardItem*> parents;
    for (const CounterReading& c : readings) {
        QStandardItem* parent = counters_;
        if (manyPorts) {
            auto& p = parents[c.port.value()];
            if (!p) {
                p = row(counters_, qs(snapshot_->portLabel(c.port)), QString());
                tree_->setFirstColumnSpanned(p->row(), counters_->index(), true);
            }
            parent = p;
        }
        const QString value = c.found ? tr("%1 %2 (sample at %3)")
                                            .arg(QString::number(c.value, 'f', 0), qs(c.unit).isEmpty() ? tr("(no unit)") : qs(c.unit), utc(c.sampleTime))
                                      : tr("no sample yet");
        row(parent, qs(c.counter), value);
    }
    for (const auto& [port, item] : parents) expand(item, parents.size() <= 2);
    expand(counters_);
    Q_EMIT countersUpdated();
}

QString InspectorPanel::text() const {
    QStringList lines{title_->text()};
    std::function<void(const QModelIndex&, int)> walk = [&](const QModelIndex& parent, int depth) {
        for (int r = 0; r < model_->rowCount(parent); ++r) {
            const QModelIndex key = model_->index(r, 0, parent);
            lines << QString(depth * 2, QLatin1Char(' ')) + key.data().toString() + QStringLiteral(": ") +
                         model_->index(r, 1, parent).data().toString();
            walk(key, depth + 1);
        }
    };
    walk(QModelIndex(), 0);
    return lines.join(QLatin1Char('\n'));
}

} // namespace fabscope
