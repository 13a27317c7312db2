// bench_views: frame costs of the fabric view at the docs/PERFORMANCE.md "large" scale (k=48 3-tier fat
// tree, 82,944 links, 360 samples) with synthetic rates: ms per cursor step (recolour through
// the link-id buffer) against two baselines, the view's own full redraw and the way a plain Qt
// view would do it (a QGraphicsScene of 82,944 line items, each re-penned, then rendered); and
// the heatmap's real redraw (the widget's whole job: order, both directions, pool, colour) to
// a 1600 x 600 plot. Software raster, offscreen.
// With --store PATH (e.g. the store bench_large --keep leaves), first times opening that store to
// a drawn fabric: what File > Open does, load on a worker and first frame (target < 2 s).
#include "core/demo_fabric.h"
#include "core/timeseries/pixel_aggregate.h"
#include "views/colour_scale.h"
#include "views/fabric_layout.h"
#include "views/fabric_view.h"
#include "views/heatmap_view.h"
#include "views/store_snapshot.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <thread>

using namespace fabscope;

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QElapsedTimer t;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--store") != 0) continue;
        // As File > Open does it: the fabric is read and drawn, then the link rates colour it.
        t.start();
        auto opened = loadStoreFabric(argv[i + 1]);
        const double readMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
        FabricView view;
        view.resize(1920, 1080);
        view.setSnapshot(opened);
        view.renderFrame();
        const double drawnMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
        auto coloured = withLinkRates(*opened);
        view.setRates(coloured);
        view.renderFrame();
        const double colouredMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
        std::printf("open %s: fabric (%zu links) drawn in %.0f ms, of which reading %.0f ms (target < 2000 ms: %s)\n",
                    argv[i + 1], opened->fabric.links.size(), drawnMs, readMs, drawnMs < 2000 ? "MET" : "NOT MET");
        std::printf("  then coloured by its %zu x %zu link rates at %.0f ms (loaded in the background)\n",
                    coloured->rates.links, coloured->rates.bins, colouredMs);
    }
    t.start();
    Fabric fabric = demoFabric(DemoOptions::Scale::Large);
    LinkTimeSeries r;
    r.start = 1700000000;
    r.step = 10;
    r.bins = 360;
    r.links = fabric.links.size();
    const std::size_t cells = r.bins * r.links;
    r.utilUp.resize(cells);
    r.utilDown.resize(cells);
    r.xmitWait.assign(cells, 100.0f);
    r.errors.assign(cells, 0.0f);
    r.upIsAtoB.assign(r.links, 1);
    std::uint64_t rng = 88172645463325252ULL;
    for (std::size_t i = 0; i < cells; ++i) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        r.utilUp[i] = static_cast<float>(rng % 10000) / 100.0f;
        r.utilDown[i] = static_cast<float>((rng >> 20) % 10000) / 100.0f;
    }
    auto snap = makeSnapshot(std::move(fabric), std::move(r));
    std::printf("large: %zu nodes, %zu links, %zu bins; built in %lld ms\n", snap->fabric.nodes.size(),
                snap->fabric.links.size(), snap->rates.bins, static_cast<long long>(t.elapsed()));

    FabricView view;
    view.resize(1920, 1080);
    view.setSnapshot(snap);
    view.renderFrame();
    const int steps = 50;
    std::vector<double> recolour, geometry;
    for (int i = 0; i < steps; ++i) {
        view.setTime(snap->rates.binStart(static_cast<std::size_t>(i)) + 1);
        t.restart();
        view.renderFrame();
        recolour.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    for (int i = 0; i < 10; ++i) {
        view.panBy(i % 2 ? 40 : -40);
        t.restart();
        view.renderFrame();
        geometry.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    const double step = median(recolour), geo = median(geometry);
    std::printf("fabric scrub step (recolour id buffer, 1920x1080): %.2f ms median (target < 16 ms)\n", step);
    std::printf("baseline: re-render geometry + recolour (pan/zoom): %.2f ms median; ratio %.1fx\n", geo, geo / step);

    // Outside baseline: a QGraphicsScene with one line item per link at the same layout, each
    // item given its link's colour at the new time, then the scene rendered at the same size.
    {
        const FabricLayout layout = layoutFor(snap->fabric, snap->tiers, snap->shape, LayoutKind::Auto);
        QGraphicsScene scene(0, 0, 1920, 1080);
        // No BSP index, as Qt advises for a scene whose items change every frame (re-penning
        // 82,944 indexed items did not finish in minutes).
        scene.setItemIndexMethod(QGraphicsScene::NoIndex);
        std::vector<QGraphicsLineItem*> items;
        items.reserve(snap->fabric.links.size());
        auto at = [&](NodeId n) {
            const std::size_t i = n.value();
            return QPointF(layout.x[i] / layout.width * 1900 + 10, 1070 - layout.y[i] / layout.top * 1060);
        };
        for (const auto& l : snap->fabric.links)
            items.push_back(scene.addLine(QLineF(at(snap->fabric.port(l.a).node), at(snap->fabric.port(l.b).node))));
        const ColourScale scale(LinkMetric::UtilMax);
        QImage image(1920, 1080, QImage::Format_RGB32);
        std::vector<double> sceneSteps;
        std::size_t recoloured = 0;
        for (std::size_t bin = 0; bin < 5; ++bin) {
            t.restart();
            for (std::size_t k = 0; k < items.size(); ++k) {
                const std::size_t cell = k * snap->rates.bins + bin;
                items[k]->setPen(QPen(QColor(scale.rgb(std::max(snap->rates.utilUp[cell], snap->rates.utilDown[cell]))), 1));
                ++recoloured;
            }
            image.fill(Qt::white);
            QPainter painter(&image);
            scene.render(&painter);
            painter.end();
            sceneSteps.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
        const double sceneStep = median(sceneSteps);
        std::printf("baseline: QGraphicsScene, %zu line items re-penned and rendered: %.2f ms median; ratio %.1fx "
                    "(both colour every one of the %zu links per step: %s)\n",
                    items.size(), sceneStep, sceneStep / step, snap->fabric.links.size(),
                    recoloured == 5 * snap->fabric.links.size() ? "agree" : "DISAGREE");
    }

    // Heatmap: the widget's own redraw, as a resize or a metric change starts it: link order,
    // both directions merged, max-pooled to the plot, coloured; timed until the image is shown.
    HeatmapView heatmap;
    heatmap.resize(1600 + 160, 600 + 60);  // a plot of about 1600 x 600 inside its margins
    heatmap.show();                        // a hidden widget gets no resize events
    QEventLoop loop;
    QObject::connect(&heatmap, &HeatmapView::imageUpdated, &loop, &QEventLoop::quit);
    QEventLoop prepLoop;  // until the view has prepared every stored metric's order and reduced copy
    QObject::connect(&heatmap, &HeatmapView::metricsPrepared, &prepLoop, &QEventLoop::quit);
    auto waitPrepared = [&] {
        t.restart();
        if (heatmap.preparing()) prepLoop.exec();
        return static_cast<double>(t.nsecsElapsed()) / 1e6;
    };
    heatmap.setSnapshot(snap);
    loop.exec();
    std::printf("  heatmap, background preparation of the stored metrics after the first image: %.0f ms\n", waitPrepared());
    std::vector<double> redraw;
    const LinkMetric metrics[] = {LinkMetric::UtilUp, LinkMetric::UtilMax};
    for (int rep = 0; rep < 6; ++rep) {
        t.restart();
        heatmap.setMetric(metrics[rep % 2]);
        loop.exec();
        redraw.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        std::printf("  heatmap, metric drawn before (%s): %.2f ms until shown, of which the job on its worker %.2f ms\n",
                    rep % 2 ? "UtilMax" : "UtilUp", redraw.back(), heatmap.lastPoolMs());
    }
    std::vector<double> resized;  // the same metric: the link order is kept, pooled and coloured again
    for (int rep = 0; rep < 6; ++rep) {
        t.restart();
        heatmap.resize(1600 + 160, 600 + 60 + (rep % 2 ? 0 : 1));
        loop.exec();
        resized.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    // A metric not drawn yet for this store: a new snapshot first, which forgets the orders of the
    // metrics drawn before; then (a) as a user would, after the background preparation that
    // follows the first image, and (b) at once, before it (order and reduced copy made then).
    std::vector<double> firstTime, firstAtOnce;
    for (int rep = 0; rep < 6; ++rep) {
        const bool atOnce = rep >= 3;
        heatmap.setSnapshot(snap);
        loop.exec();
        if (!atOnce) waitPrepared();
        t.restart();
        const LinkMetric next = heatmap.metric() == LinkMetric::UtilUp ? LinkMetric::UtilMax : LinkMetric::UtilUp;
        heatmap.setMetric(next);
        loop.exec();
        (atOnce ? firstAtOnce : firstTime).push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        std::printf("  heatmap, metric first drawn (%s, %s): %.2f ms until shown, of which the job on its worker %.2f ms\n",
                    next == LinkMetric::UtilMax ? "UtilMax" : "UtilUp", atOnce ? "before the preparation" : "prepared",
                    static_cast<double>(t.nsecsElapsed()) / 1e6, heatmap.lastPoolMs());
    }
    const QImage shown = heatmap.grab().toImage();
    std::size_t coloured = 0;
    for (int y = 0; y < shown.height(); y += 4)
        for (int x = 0; x < shown.width(); x += 4) coloured += shown.pixel(x, y) != shown.pixel(0, 0);
    std::printf("heatmap redraw after a metric change (the view's job: %zu links x %zu bins, both directions, pooled and coloured, "
                "%u threads): first time for the store %.2f ms median (%.2f-%.2f; %.2f ms before the background preparation), "
                "a metric drawn before %.2f ms median (target < 50 ms); %zu sampled pixels coloured\n",
                snap->rates.links, snap->rates.bins, std::thread::hardware_concurrency(), median(firstTime),
                *std::min_element(firstTime.begin(), firstTime.end()), *std::max_element(firstTime.begin(), firstTime.end()),
                median(firstAtOnce), median(redraw), coloured);
    std::printf("heatmap redraw after a resize (order kept): %.2f ms median (target < 50 ms)\n", median(resized));

    // Its pooling step alone, for comparison with earlier runs.
    const auto& rates = snap->rates;
    std::vector<std::uint32_t> order(rates.links);
    std::iota(order.begin(), order.end(), 0u);
    const std::size_t W = 1600, H = 600;
    std::vector<float> out(W * H);
    std::vector<double> pool;
    for (int rep = 0; rep < 5; ++rep) {
        t.restart();
        std::thread other([&] { maxPoolRows(rates.utilUp.data(), rates.bins, order, H, W, H / 2, H, out.data()); });
        maxPoolRows(rates.utilUp.data(), rates.bins, order, H, W, 0, H / 2, out.data());
        other.join();
        pool.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    std::printf("  of which one direction's max-pool alone (%zu x %zu -> %zu x %zu, 2 threads): %.2f ms median\n", rates.links,
                rates.bins, H, W, median(pool));
    // Both directions (UtilMax), as the view pooled them before (every link's rows read) and now
    // (whole groups of 16 links from the reduced copy, the edges raw); the cells must agree.
    const float* const both[] = {rates.utilUp.data(), rates.utilDown.data()};
    constexpr std::size_t group = 16;
    const std::size_t groups = rates.links / group;
    std::vector<float> reduced(groups * rates.bins), fast(W * H);
    t.restart();
    std::thread builder([&] { maxPoolGroups(both, rates.bins, order, group, groups / 2, groups, reduced.data()); });
    maxPoolGroups(both, rates.bins, order, group, 0, groups / 2, reduced.data());
    builder.join();
    const double buildMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
    std::vector<double> rawBoth, grouped;
    for (int rep = 0; rep < 5; ++rep) {
        t.restart();
        std::thread other([&] { maxPoolRows(both, rates.bins, order, H, W, H / 2, H, out.data()); });
        maxPoolRows(both, rates.bins, order, H, W, 0, H / 2, out.data());
        other.join();
        rawBoth.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        t.restart();
        std::thread other2([&] { maxPoolRows(both, rates.bins, order, reduced.data(), group, H, W, H / 2, H, fast.data()); });
        maxPoolRows(both, rates.bins, order, reduced.data(), group, H, W, 0, H / 2, fast.data());
        other2.join();
        grouped.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    std::printf("  both directions' max-pool: every row %.2f ms median, from the reduced copy (%.1f MB, built in %.0f ms) %.2f ms "
                "median; cells %s\n",
                median(rawBoth), static_cast<double>(reduced.size() * sizeof(float)) / 1e6, buildMs, median(grouped),
                std::memcmp(out.data(), fast.data(), out.size() * sizeof(float)) == 0 ? "identical" : "DIFFER");
    return 0;
}
