#pragma once
// A tiny HTTP/1.1 server standing in for Prometheus in tests: each request is answered by a
// handler (status + body), or left hanging to test timeouts. One request per connection.
#include <QHash>
#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>
#include <QUrlQuery>

#include <functional>

struct FakeAnswer {
    int status = 200;
    QByteArray body;
    bool hang = false;  // read the request, never answer
};

class FakePrometheus : public QObject {
public:
    using Handler = std::function<FakeAnswer(const QUrl&)>;

    explicit FakePrometheus(Handler handler) : handler_(std::move(handler)) {
        server_.listen(QHostAddress::LocalHost, 0);
        connect(&server_, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = server_.nextPendingConnection()) {
                s->setParent(this);
                connect(s, &QTcpSocket::readyRead, this, [this, s] { serve(s); });
            }
        });
    }
    [[nodiscard]] QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(server_.serverPort()); }
    [[nodiscard]] const QList<QUrl>& requests() const { return requests_; }

    // Prometheus' query_range on one node_exporter counter whose value at t is 1000 + t, with
    // the server's check of (end - start) / step against `limit`.
    static Handler rangeOfOneCounter(double limit = 11000) {
        return [limit](const QUrl& url) -> FakeAnswer {
            if (url.path() != QLatin1String("/api/v1/query_range")) return {404, "404 page not found\n"};
            const QUrlQuery q(url);
            const double start = q.queryItemValue(QStringLiteral("start")).toDouble();
            const double end = q.queryItemValue(QStringLiteral("end")).toDouble();
            const double step = q.queryItemValue(QStringLiteral("step")).toDouble();
            if ((end - start) / step > limit)
                return {400, R"j({"status":"error","errorType":"bad_data","error":"exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)"})j"};
            QByteArray values;
            for (double t = start; t <= end; t += step)
                values += (values.isEmpty() ? "" : ",") + QByteArray("[") + QByteArray::number(t, 'f', 3) + ",\"" +
                          QByteArray::number(1000 + t, 'f', 0) + "\"]";
            return {200, R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"node_infiniband_port_data_transmitted_bytes_total","instance":"gpu007:9100","device":"mlx5_0","port":"1"},"values":[)" +
                             values + "]}]}}"};
        };
    }

private:
    void serve(QTcpSocket* s) {
        QByteArray& buf = pending_[s];
        buf += s->readAll();
        if (!buf.contains("\r\n\r\n")) return;
        const QList<QByteArray> line = buf.left(buf.indexOf("\r\n")).split(' ');
        const QUrl url = QUrl(QStringLiteral("http://x") + QString::fromLatin1(line.value(1)));
        pending_.remove(s);
        requests_.append(url);
        const FakeAnswer a = handler_(url);
        if (a.hang) return;
        s->write("HTTP/1.1 " + QByteArray::number(a.status) + (a.status == 200 ? " OK" : a.status == 404 ? " Not Found" : " Bad Request") +
                 "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(a.body.size()) +
                 "\r\nConnection: close\r\n\r\n" + a.body);
        s->disconnectFromHost();
    }

    Handler handler_;
    QTcpServer server_;
    QList<QUrl> requests_;
    QHash<QTcpSocket*, QByteArray> pending_;
};
