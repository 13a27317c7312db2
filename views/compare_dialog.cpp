#include "views/compare_dialog.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include <cmath>

namespace fabscope {
namespace {

QDateTimeEdit* timeEdit(QWidget* parent, const QString& name, const QString& accessible) {
    auto* e = new QDateTimeEdit(parent);
    e->setObjectName(name);
    e->setAccessibleName(accessible);
    e->setTimeSpec(Qt::UTC);
    e->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    e->setCalendarPopup(true);
    e->setToolTip(QObject::tr("UTC, with the date"));
    return e;
}

void setTime(QDateTimeEdit* e, double t) {
    e->setDateTime(QDateTime::fromSecsSinceEpoch(static_cast<qint64>(std::llround(t)), Qt::UTC));
}

double secondsOf(const QDateTimeEdit* e) { return static_cast<double>(e->dateTime().toSecsSinceEpoch()); }

} // namespace

CompareDialog::CompareDialog(const QString& openStore, TimeRange span, QWidget* parent) : QDialog(parent), openStore_(openStore) {
    setWindowTitle(tr("Compare a good run with a bad one"));
    setObjectName(QStringLiteral("compareDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("What changed between a good run and a bad one: topology, load (p95 utilisation), errors, pauses, "
                                "congestion, jobs and benchmarks, ranked by their likely impact. Open store: <b>%1</b>.")
                                 .arg(QFileInfo(openStore).fileName().toHtmlEscaped()),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    storeMode_ = new QRadioButton(tr("With &another store (each over its whole span)"), this);
    storeMode_->setObjectName(QStringLiteral("compareStoreMode"));
    storeMode_->setAccessibleName(tr("Compare with another store"));
    layout->addWidget(storeMode_);
    auto* storeForm = new QFormLayout;
    auto* pathRow = new QHBoxLayout;
    otherPath_ = new QLineEdit(this);
    otherPath_->setObjectName(QStringLiteral("compareOtherStore"));
    otherPath_->setAccessibleName(tr("The other store"));
    otherPath_->setPlaceholderText(tr("path of the other run's store (.sqlite)"));
    browse_ = new QPushButton(tr("&Browse…"), this);
    browse_->setObjectName(QStringLiteral("compareBrowse"));
    browse_->setAccessibleName(tr("Choose the other store"));
    pathRow->addWidget(otherPath_, 1);
    pathRow->addWidget(browse_);
    storeForm->addRow(tr("Other &store:"), pathRow);
    role_ = new QComboBox(this);
    role_->setObjectName(QStringLiteral("compareRole"));
    role_->setAccessibleName(tr("Which run the other store is"));
    role_->addItem(tr("is the good run (the open store is the bad one)"), true);
    role_->addItem(tr("is the bad run (the open store is the good one)"), false);
    storeForm->addRow(tr("The other store"), role_);
    layout->addLayout(storeForm);

    windowMode_ = new QRadioButton(tr("Two &windows of the open store"), this);
    windowMode_->setObjectName(QStringLiteral("compareWindowMode"));
    windowMode_->setAccessibleName(tr("Compare two windows of the open store"));
    layout->addWidget(windowMode_);
    auto* windows = new QFormLayout;
    goodFrom_ = timeEdit(this, QStringLiteral("compareGoodFrom"), tr("Good window start (UTC)"));
    goodTo_ = timeEdit(this, QStringLiteral("compareGoodTo"), tr("Good window end (UTC)"));
    badFrom_ = timeEdit(this, QStringLiteral("compareBadFrom"), tr("Bad window start (UTC)"));
    badTo_ = timeEdit(this, QStringLiteral("compareBadTo"), tr("Bad window end (UTC)"));
    auto row = [this](QDateTimeEdit* a, QDateTimeEdit* b) {
        auto* h = new QHBoxLayout;
        h->addWidget(a, 1);
        h->addWidget(new QLabel(tr("to"), this));
        h->addWidget(b, 1);
        return h;
    };
    windows->addRow(tr("&Good window:"), row(goodFrom_, goodTo_));
    windows->addRow(tr("Ba&d window:"), row(badFrom_, badTo_));
    layout->addLayout(windows);
    if (span.valid()) {  // halves of the store's span
        const double mid = std::floor((span.start + span.end) / 2);
        useWindows({span.start, mid}, {mid, span.end});
    }

    problem_ = new QLabel(this);
    problem_->setObjectName(QStringLiteral("compareProblem"));
    problem_->setStyleSheet(QStringLiteral("color: #a00000"));
    layout->addWidget(problem_);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    ok_ = box->button(QDialogButtonBox::Ok);
    ok_->setText(tr("&Compare"));
    layout->addWidget(box);
    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse_, &QPushButton::clicked, this, &CompareDialog::chooseStore);
    for (QRadioButton* b : {storeMode_, windowMode_}) connect(b, &QRadioButton::toggled, this, &CompareDialog::update);
    connect(otherPath_, &QLineEdit::textChanged, this, &CompareDialog::update);
    for (QDateTimeEdit* e : {goodFrom_, goodTo_, badFrom_, badTo_}) connect(e, &QDateTimeEdit::dateTimeChanged, this, &CompareDialog::update);
    storeMode_->setChecked(true);
    update();
    resize(620, sizeHint().height());
}

void CompareDialog::useOtherStore(const QString& path, bool otherIsGood) {
    storeMode_->setChecked(true);
    otherPath_->setText(path);
    role_->setCurrentIndex(otherIsGood ? 0 : 1);
}

void CompareDialog::useWindows(TimeRange good, TimeRange bad) {
    setTime(goodFrom_, good.start);
    setTime(goodTo_, good.end);
    setTime(badFrom_, bad.start);
    setTime(badTo_, bad.end);
    if (windowMode_) windowMode_->setChecked(true);
}

void CompareDialog::chooseStore() {
    const QString path = QFileDialog::getOpenFileName(this, tr("The other run's store"), QFileInfo(openStore_).absolutePath(),
                                                      tr("FabScope stores (*.sqlite *.db);;All files (*)"));
    if (!path.isEmpty()) otherPath_->setText(path);
}

QString CompareDialog::problem() const {
    if (storeMode_->isChecked()) {
        const QString path = otherPath_->text().trimmed();
        if (path.isEmpty()) return tr("Choose the other run's store.");
        if (!QFileInfo(path).isFile()) return tr("No such file: %1").arg(path);
        if (QFileInfo(path).canonicalFilePath() == QFileInfo(openStore_).canonicalFilePath())
            return tr("That is the open store: compare two of its windows instead.");
        return {};
    }
    if (secondsOf(goodFrom_) >= secondsOf(goodTo_)) return tr("The good window ends before it starts.");
    if (secondsOf(badFrom_) >= secondsOf(badTo_)) return tr("The bad window ends before it starts.");
    return {};
}

void CompareDialog::update() {
    const bool store = storeMode_->isChecked();
    for (QWidget* w : {static_cast<QWidget*>(otherPath_), static_cast<QWidget*>(browse_), static_cast<QWidget*>(role_)}) w->setEnabled(store);
    for (QWidget* w : {goodFrom_, goodTo_, badFrom_, badTo_}) w->setEnabled(!store);
    const QString why = problem();
    problem_->setText(why);
    ok_->setEnabled(why.isEmpty());
}

CompareRequest CompareDialog::request() const {
    CompareRequest r;
    const std::string open = openStore_.toStdString();
    if (storeMode_->isChecked()) {
        const std::string other = otherPath_->text().trimmed().toStdString();
        const bool otherIsGood = role_->currentData().toBool();
        r.goodStore = otherIsGood ? other : open;
        r.badStore = otherIsGood ? open : other;
    } else {
        r.goodStore = r.badStore = open;
        r.goodWindow = {secondsOf(goodFrom_), secondsOf(goodTo_)};
        r.badWindow = {secondsOf(badFrom_), secondsOf(badTo_)};
    }
    return r;
}

} // namespace fabscope
