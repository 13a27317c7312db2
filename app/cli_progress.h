#pragma once
// The CLI's one-line progress on stderr, for the commands a user waits on (import, report).
//
// Shown only when stderr is a terminal: a log or a pipe gets the commands' plain lines and no
// carriage returns. The line is redrawn in place ("\r") when its percentage or stage changes,
// kept within the terminal's width so it never wraps, and cleared when the command is done.

#include <string>

namespace fabscope::cli {

[[nodiscard]] bool stderrIsTerminal();

class ProgressLine {
public:
    // `verb` leads the line ("importing", "report"); `enabled` is usually stderrIsTerminal().
    ProgressLine(std::string verb, bool enabled);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    // An import's progress (ImportRunner's ProgressFn): never cancels.
    bool operator()(double fraction);
    // A stage named beside the bar, e.g. "Single points of stress: what-if 12 of 48 (leaf uplink)…".
    void operator()(double fraction, const std::string& stage);
    // A new stage at the fraction last shown (an import's next file).
    void stage(const std::string& stage);

private:
    std::string verb_;
    bool enabled_;
    bool shown_ = false;
    int lastPercent_ = -1;
    double lastFraction_ = 0;
    std::string lastStage_;
    int columns_ = 80;
};

// `text` cut to at most `columns` characters (UTF-8 code points, never split), "…" ending a cut.
[[nodiscard]] std::string fitToColumns(const std::string& text, int columns);

} // namespace fabscope::cli
