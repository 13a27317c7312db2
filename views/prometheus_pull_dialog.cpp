#include "views/prometheus_pull_dialog.h"

#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QUrl>

namespace fabscope {

PrometheusPullDialog::PrometheusPullDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Import from Prometheus"));
    setObjectName(QStringLiteral("prometheusPullDialog"));
    const QSettings settings;
    url_ = new QLineEdit(settings.value(QStringLiteral("prometheus/url"), QStringLiteral("http://localhost:9090")).toString(), this);
    url_->setObjectName(QStringLiteral("url"));
    url_->setToolTip(tr("The server, e.g. http://prometheus:9090 (a path prefix is kept)"));
    const QDateTime now = QDateTime::currentDateTimeUtc();  // shown and typed in UTC, as every time in FabScope
    from_ = new QDateTimeEdit(now.addSecs(-3600), this);
    from_->setObjectName(QStringLiteral("from"));
    to_ = new QDateTimeEdit(now, this);
    to_->setObjectName(QStringLiteral("to"));
    for (auto* edit : {from_, to_}) {
        edit->setTimeSpec(Qt::UTC);
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
        edit->setToolTip(tr("UTC, with the date"));
    }
    step_ = new QSpinBox(this);
    step_->setObjectName(QStringLiteral("step"));
    step_->setRange(1, 86400);
    step_->setSuffix(QStringLiteral(" s"));
    step_->setValue(settings.value(QStringLiteral("prometheus/step"), 60).toInt());
    step_->setToolTip(tr("Seconds between samples; use the scrape interval (a finer step repeats samples)"));
    selectors_ = new QPlainTextEdit(this);
    selectors_->setObjectName(QStringLiteral("selectors"));
    selectors_->setPlaceholderText(tr("One selector per line; empty: the InfiniBand and ethtool exporter counters"));
    selectors_->setTabChangesFocus(true);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Import"));

    auto* form = new QFormLayout(this);
    form->addRow(tr("&Server URL:"), url_);
    form->addRow(tr("&From:"), from_);
    form->addRow(tr("&To:"), to_);
    form->addRow(tr("&Step:"), step_);
    form->addRow(tr("S&electors:"), selectors_);
    form->addRow(buttons_);

    connect(buttons_, &QDialogButtonBox::accepted, this, [this] {
        QSettings s;
        s.setValue(QStringLiteral("prometheus/url"), url());
        s.setValue(QStringLiteral("prometheus/step"), stepSeconds());
        accept();
    });
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(url_, &QLineEdit::textChanged, this, &PrometheusPullDialog::validate);
    connect(from_, &QDateTimeEdit::dateTimeChanged, this, &PrometheusPullDialog::validate);
    connect(to_, &QDateTimeEdit::dateTimeChanged, this, &PrometheusPullDialog::validate);
    validate();
}

QString PrometheusPullDialog::url() const { return url_->text().trimmed(); }
QDateTime PrometheusPullDialog::from() const { return from_->dateTime(); }
QDateTime PrometheusPullDialog::to() const { return to_->dateTime(); }
int PrometheusPullDialog::stepSeconds() const { return step_->value(); }

QStringList PrometheusPullDialog::selectors() const {
    QStringList out;
    for (const QString& line : selectors_->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty()) out << line.trimmed();
    return out;
}

void PrometheusPullDialog::setWindow(const QDateTime& from, const QDateTime& to) {
    from_->setDateTime(from);
    to_->setDateTime(to);
}

// Import only with an http(s) URL and a window that is not reversed.
void PrometheusPullDialog::validate() {
    const QUrl u(url(), QUrl::StrictMode);
    const bool urlOk = u.isValid() && (u.scheme() == QLatin1String("http") || u.scheme() == QLatin1String("https")) && !u.host().isEmpty();
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(urlOk && from() <= to());
    url_->setToolTip(urlOk ? tr("The server, e.g. http://prometheus:9090 (a path prefix is kept)") : tr("Enter an http:// or https:// URL"));
}

} // namespace fabscope
