#pragma once
// One HTTP GET, waited for on the calling thread (its own event loop), with an inactivity
// timeout, retries with doubling back-off on transient failures, and cancellation.
#include <QByteArray>
#include <QString>
#include <QUrl>

#include <functional>
#include <stdexcept>
#include <string>

class QNetworkAccessManager;

namespace fabscope {

struct RetryPolicy {
    int timeoutMs = 60000;  // no byte received for this long: the attempt failed
    int attempts = 3;
    int backoffMs = 500;    // wait before the 2nd attempt; doubles after each
};

struct HttpAnswer {
    int status = 0;       // HTTP status code
    QByteArray reason;    // "Not Found"
    QByteArray body;
};

// The server could not be reached or did not answer (after the retries).
class FetchError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Retries on a timeout, a reset connection and HTTP 502/503/504 (each noted through `note`);
// returns every other HTTP answer whatever its status. Throws FetchError when no answer came,
// ImportCancelled when `cancelled()` turned true.
HttpAnswer fetchWithRetries(QNetworkAccessManager& nam, const QUrl& url, const RetryPolicy& policy,
                            const std::function<bool()>& cancelled, const std::function<void(const std::string&)>& note);

} // namespace fabscope
