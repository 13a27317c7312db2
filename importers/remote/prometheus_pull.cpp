#include "importers/remote/prometheus_pull.h"

#include "core/sha256.h"
#include "importers/prom_api_series.h"
#include "importers/remote/http_fetch.h"
#include "importers/remote/query_chunks.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>

#include <cmath>
#include <deque>
#include <memory>
#include <stdexcept>

namespace fabscope {
namespace {

constexpr std::string_view kFormat = "prometheus-pull";
constexpr std::string_view kEndpoint = "/api/v1/query_range";

// "1796056707.250": Prometheus takes float seconds; milliseconds keep chunk edges exact.
QByteArray seconds(std::int64_t ms) {
    return QByteArray::number(ms / 1000) + '.' + QByteArray::number(ms % 1000).rightJustified(3, '0');
}

std::int64_t toMs(double s) { return std::llround(s * 1000.0); }

// The server's query_range endpoint from a base URL (with or without a path prefix) or the endpoint itself.
QUrl endpointOf(const std::string& text) {
    QUrl url(QString::fromStdString(text), QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) || url.host().isEmpty())
        throw std::invalid_argument("--prometheus expects an http:// or https:// URL, got '" + text + "'");
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/'))) path.chop(1);
    if (!path.endsWith(QLatin1String(kEndpoint.data()))) path += QLatin1String(kEndpoint.data());
    url.setPath(path);
    url.setQuery(QString());
    url.setFragment(QString());
    return url;
}

QUrl queryUrl(const QUrl& endpoint, const std::string& selector, const TimeChunk& c, std::int64_t stepMs) {
    // Percent-encode everything: a '+' left bare in a regex selector would reach the server as a space.
    const QByteArray query = "query=" + QUrl::toPercentEncoding(QString::fromStdString(selector)) + "&start=" + seconds(c.startMs) +
                             "&end=" + seconds(c.endMs) + "&step=" + seconds(stepMs);
    QUrl url = endpoint;
    url.setQuery(QString::fromLatin1(query));
    return url;
}

// What a non-200 answer says: the HTTP status and, from an API error body, errorType and error.
std::string describeFailure(const HttpAnswer& a, const QUrl& url) {
    std::string what = "HTTP " + std::to_string(a.status) + (a.reason.isEmpty() ? "" : " " + a.reason.toStdString());
    const QJsonObject err = QJsonDocument::fromJson(a.body).object();
    if (err.value(QLatin1String("status")).toString() == QLatin1String("error"))
        what += ": " + err.value(QLatin1String("errorType")).toString().toStdString() + ": " +
                err.value(QLatin1String("error")).toString().toStdString();
    else if (!a.body.trimmed().isEmpty())
        what += ": " + a.body.trimmed().left(200).toStdString();
    return what + " (" + url.toDisplayString().toStdString() + ")";
}

bool exceedsResolution(const HttpAnswer& a) { return a.status == 400 && a.body.contains("exceeded maximum resolution"); }

// The CLI has no Qt application; Qt's event loops need one on the main thread.
std::unique_ptr<QCoreApplication> ensureApplication() {
    if (QCoreApplication::instance()) return nullptr;
    static int argc = 1;
    static char name[] = "fabscope";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QCoreApplication>(argc, argv);
}

struct Query {
    TimeChunk chunk;
    std::size_t selector = 0;
};

} // namespace

std::vector<std::string> defaultFabricSelectors() {
    return {
        R"({__name__=~"infiniband_.+_total"})",       // treydock (switch/hca port) and guilbaults
        R"({__name__=~"node_infiniband_.+_total"})",  // node_exporter infiniband collector
        R"({__name__=~"node_ethtool_.+"})",           // node_exporter ethtool collector
    };
}

ImportSummary pullPrometheus(Store& store, const PullOptions& o, const ProgressFn& progress) {
    const QUrl endpoint = endpointOf(o.url);
    if (!(o.step > 0) || !std::isfinite(o.step)) throw std::invalid_argument("--step must be a positive number of seconds");
    if (!std::isfinite(o.from) || !std::isfinite(o.to) || o.from < 0 || o.to < o.from)
        throw std::invalid_argument("--from and --to must be UNIX seconds with --from <= --to");
    const std::int64_t fromMs = toMs(o.from), toMsEnd = toMs(o.to), stepMs = std::max<std::int64_t>(1, toMs(o.step));
    const std::vector<std::string> selectors = o.selectors.empty() ? defaultFabricSelectors() : o.selectors;

    // Identity of the pull: same server, selectors, window and step = same data.
    const std::string where = endpoint.toDisplayString().toStdString();
    std::string identity = std::string(kFormat) + "\n" + where + "\n";
    for (const auto& s : selectors) identity += s + "\n";
    identity += (seconds(fromMs) + " " + seconds(toMsEnd) + " " + seconds(stepMs)).toStdString();
    const std::string sha = sha256Hex(identity);
    const std::string record = where + " start=" + seconds(fromMs).toStdString() + " end=" + seconds(toMsEnd).toStdString() +
                               " step=" + seconds(stepMs).toStdString() +
                               (o.selectors.empty() ? std::string() : " match=" + std::to_string(selectors.size()));

    ImportSummary summary;
    if (auto prior = store.findImport(sha)) {
        summary.files.push_back({record, FileStatus::AlreadyImported, prior->format, 0});
        summary.diagnostics.push_back({record, 0, Severity::Info, "already pulled as " + prior->file + " (same SHA-256): nothing to do"});
        return summary;
    }

    std::optional<FabricIndex> index;
    if (const auto latest = store.latestSnapshot()) index = FabricIndex::from(store.loadFabric(latest->id));

    const auto app = ensureApplication();
    QNetworkAccessManager nam;
    const RetryPolicy policy{o.timeoutMs, o.attempts, o.backoffMs};
    DiagnosticSink diag(where);
    PromApiSeries series(index ? &*index : nullptr, std::string());
    const auto note = [&diag](const std::string& m) { diag.warn(0, m); };

    const double total = static_cast<double>(pointsIn({fromMs, toMsEnd}, stepMs)) * static_cast<double>(selectors.size());
    double done = 0;
    const auto cancelled = [&] { return progress && !progress(done / total); };
    std::deque<Query> queue;
    for (const auto& c : planChunks(fromMs, toMsEnd, stepMs, std::max<std::int64_t>(1, o.maxPoints)))
        for (std::size_t s = 0; s < selectors.size(); ++s) queue.push_back({c, s});
    std::int64_t queries = 0, splits = 0;
    const auto fail = [&](const std::string& message) {
        summary.diagnostics.insert(summary.diagnostics.end(), diag.items().begin(), diag.items().end());
        summary.diagnostics.push_back({where, 0, Severity::Error, message});
        summary.files.push_back({record, FileStatus::Failed, std::string(kFormat), 0});
        return summary;
    };
    try {
        while (!queue.empty()) {
            if (cancelled()) throw ImportCancelled();
            const Query q = queue.front();
            queue.pop_front();
            const QUrl url = queryUrl(endpoint, selectors[q.selector], q.chunk, stepMs);
            const HttpAnswer answer = fetchWithRetries(nam, url, policy, cancelled, note);
            ++queries;
            if (exceedsResolution(answer)) {  // a server with a lower limit than ours: halve and ask again
                if (const auto halves = splitChunk(q.chunk, stepMs)) {
                    ++splits;
                    queue.push_front({halves->second, q.selector});
                    queue.push_front({halves->first, q.selector});
                    continue;
                }
            }
            if (answer.status != 200) return fail(describeFailure(answer, url));
            try {
                series.add(std::string_view(answer.body.constData(), static_cast<std::size_t>(answer.body.size())), diag);
            } catch (const ImportError& e) {
                return fail(e.diagnostic().message + " (" + url.toDisplayString().toStdString() + ")");
            }
            done += static_cast<double>(pointsIn(q.chunk, stepMs));
        }
        if (progress && !progress(1.0)) throw ImportCancelled();
    } catch (const FetchError& e) {
        return fail(std::string("cannot reach Prometheus: ") + e.what());  // the diagnostic names the URL
    } catch (const ImportCancelled&) {
        summary.cancelled = true;
        summary.diagnostics.insert(summary.diagnostics.end(), diag.items().begin(), diag.items().end());
        return summary;
    }
    if (splits) diag.warn(0, "the server refused " + std::to_string(splits) + " queries as too long; they were split");

    try {
        Store::Transaction tx(store);
        SampleWriter writer(store);
        const std::int64_t rows = series.write(writer, diag);
        writer.flush();
        if (writer.unmappedSeries() > 0)
            diag.warn(0, std::to_string(writer.unmappedSeries()) +
                             " series name nodes not in the topology; kept as unmapped (see 'fabscope info')");
        store.recordImport(record, sha, std::string(kFormat), rows);
        tx.commit();
        summary.diagnostics.insert(summary.diagnostics.end(), diag.items().begin(), diag.items().end());
        summary.diagnostics.push_back({where, 0, Severity::Info, std::to_string(queries) + " queries, " + std::to_string(rows) + " samples"});
        summary.files.push_back({record, FileStatus::Imported, std::string(kFormat), rows});
    } catch (const ImportError& e) {
        return fail(e.diagnostic().message + " from " + record);
    }
    return summary;
}

} // namespace fabscope
