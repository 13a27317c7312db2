#include "app/cli_progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fabscope::cli {
namespace {

int terminalColumns() {
    winsize ws{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
    return 80;
}

bool continues(unsigned char c) { return (c & 0xC0) == 0x80; }  // a UTF-8 continuation byte

int columnsOf(const std::string& text) {
    return static_cast<int>(std::count_if(text.begin(), text.end(), [](char c) { return !continues(static_cast<unsigned char>(c)); }));
}

} // namespace

bool stderrIsTerminal() { return ::isatty(STDERR_FILENO) != 0; }

std::string fitToColumns(const std::string& text, int columns) {
    if (columns <= 0) return {};
    int count = 0;
    std::size_t cut = std::string::npos;  // where the last character that still leaves room for "…" ends
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (continues(static_cast<unsigned char>(text[i]))) continue;
        if (count == columns - 1) cut = i;
        if (++count > columns) return text.substr(0, cut) + "…";
    }
    return text;
}

ProgressLine::ProgressLine(std::string verb, bool enabled) : verb_(std::move(verb)), enabled_(enabled) {
    if (enabled_) columns_ = terminalColumns();
}

ProgressLine::~ProgressLine() {
    // Spaces over the whole line, then back to its start: the command's own lines follow cleanly.
    if (shown_) std::fprintf(stderr, "\r%*s\r", columns_ - 1, "");
}

bool ProgressLine::operator()(double fraction) {
    (*this)(fraction, lastStage_);
    return true;
}

void ProgressLine::stage(const std::string& stage) { (*this)(lastFraction_, stage); }

void ProgressLine::operator()(double fraction, const std::string& stage) {
    if (!enabled_) return;
    if (std::isnan(fraction)) fraction = lastFraction_;  // a writer with no news: what was shown
    lastFraction_ = fraction;
    const int percent = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 100);
    if (percent == lastPercent_ && stage == lastStage_) return;
    lastPercent_ = percent;
    lastStage_ = stage;
    shown_ = true;
    // "report  42% [#####     ] Single points of stress: what-if 12 of 48 (top-tier switch)…": the
    // stage says more than the bar, so on a narrow terminal the bar goes first.
    char pct[8];
    std::snprintf(pct, sizeof pct, "%3d%%", percent);
    std::string line = verb_ + " " + pct;
    constexpr int kStageRoom = 64, kMaxBar = 30, kMinBar = 6;
    const int room = stage.empty() ? kMaxBar : columns_ - 1 - columnsOf(line) - 3 - kStageRoom;
    if (const int bar = std::min(room, kMaxBar); bar >= kMinBar) {
        const int filled = percent * bar / 100;
        line += " [" + std::string(static_cast<std::size_t>(filled), '#') + std::string(static_cast<std::size_t>(bar - filled), ' ') + "]";
    }
    if (!stage.empty()) line += " " + stage;
    // One column short of the width: a line that fills it exactly wraps on some terminals.
    line = fitToColumns(line, columns_ - 1);
    // Padded to the width, so a shorter stage leaves nothing of a longer one behind.
    line.append(static_cast<std::size_t>(std::max(0, columns_ - 1 - columnsOf(line))), ' ');
    std::fprintf(stderr, "\r%s", line.c_str());
    std::fflush(stderr);
}

} // namespace fabscope::cli
