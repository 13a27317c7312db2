#include "importers/remote/http_fetch.h"

#include "core/diagnostics.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QThread>
#include <QTimer>

#include <memory>

namespace fabscope {
namespace {

enum class Outcome { Answered, Transient, Unreachable };

struct Attempt {
    Outcome outcome = Outcome::Unreachable;
    HttpAnswer answer;
    std::string why;
};

bool transientNetworkError(QNetworkReply::NetworkError e) {
    switch (e) {
    case QNetworkReply::RemoteHostClosedError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::UnknownNetworkError:
        return true;
    default:
        return false;
    }
}

Attempt attemptOnce(QNetworkAccessManager& nam, const QUrl& url, int timeoutMs, const std::function<bool()>& cancelled) {
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    std::unique_ptr<QNetworkReply> reply(nam.get(request));
    QEventLoop loop;
    QTimer idle, poll;
    idle.setSingleShot(true);
    bool timedOut = false, userCancelled = false;
    QObject::connect(reply.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(reply.get(), &QNetworkReply::downloadProgress, &idle, [&idle, timeoutMs] { idle.start(timeoutMs); });
    QObject::connect(&idle, &QTimer::timeout, reply.get(), [&] {
        timedOut = true;
        reply->abort();
    });
    QObject::connect(&poll, &QTimer::timeout, reply.get(), [&] {
        if (cancelled && cancelled()) {
            userCancelled = true;
            reply->abort();
        }
    });
    idle.start(timeoutMs);
    poll.start(100);
    if (!reply->isFinished()) loop.exec();
    if (userCancelled) throw ImportCancelled();

    Attempt a;
    if (timedOut) {
        a.outcome = Outcome::Transient;
        a.why = "no answer within " + std::to_string(timeoutMs) + " ms";
        return a;
    }
    const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (status.isValid() && status.toInt() > 0) {
        a.answer = {status.toInt(), reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray(), reply->readAll()};
        const int s = a.answer.status;
        a.outcome = (s == 502 || s == 503 || s == 504) ? Outcome::Transient : Outcome::Answered;
        a.why = "HTTP " + std::to_string(s);
        return a;
    }
    a.outcome = transientNetworkError(reply->error()) ? Outcome::Transient : Outcome::Unreachable;
    a.why = reply->errorString().toStdString();
    return a;
}

} // namespace

HttpAnswer fetchWithRetries(QNetworkAccessManager& nam, const QUrl& url, const RetryPolicy& policy,
                            const std::function<bool()>& cancelled, const std::function<void(const std::string&)>& note) {
    int backoff = policy.backoffMs;
    for (int attempt = 1;; ++attempt) {
        Attempt a = attemptOnce(nam, url, policy.timeoutMs, cancelled);
        if (a.outcome == Outcome::Answered) return a.answer;
        if (a.outcome == Outcome::Unreachable) throw FetchError(a.why);
        if (attempt >= policy.attempts) {
            if (a.answer.status > 0) return a.answer;  // the caller reports the server's own words
            throw FetchError(a.why + " (" + std::to_string(attempt) + " attempts)");
        }
        if (note)
            note(a.why + "; retrying in " + std::to_string(backoff) + " ms (attempt " + std::to_string(attempt + 1) + " of " +
                 std::to_string(policy.attempts) + ")");
        // Sleep in slices so Cancel stays responsive during the back-off.
        for (int waited = 0; waited < backoff; waited += 50) {
            if (cancelled && cancelled()) throw ImportCancelled();
            QThread::msleep(50);
        }
        backoff *= 2;
    }
}

} // namespace fabscope
