// bench_views: frame costs of the fabric view at the docs/PERFORMANCE.md "large" scale (k=48 3-tier fat
// tree, 82,944 links, 360 samples) with synthetic rates: ms per cursor step (recolour through
// the link-id buffer) against redrawing the geometry, which a naive view would do every step;
// and the heatmap pooling of links x time to a 1600 x 600 screen. Software raster, offscreen.
// With --store PATH (e.g. the store bench_large --keep leaves), first times opening that store to
// a drawn fabric: what File > Open does, load on a worker and first frame (target < 2 s).
#include "core/demo_fabric.h"
#include "core/timeseries/pixel_aggregate.h"
#include "views/fabric_view.h"
#include "views/store_snapshot.h"

#include <QApplication>
#include <QElapsedTimer>

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

    // Heatmap: 82,944 links x 360 bins max-pooled to 1600 x 600 px, on 2 threads.
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
    std::printf("heatmap redraw (max-pool %zu x %zu -> %zu x %zu, 2 threads): %.2f ms median (target < 50 ms)\n", rates.links,
                rates.bins, H, W, median(pool));
    return 0;
}
