#include "core/diagnostics.h"

namespace fabscope {

std::string Diagnostic::format() const {
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line);
    s += ": ";
    if (severity == Severity::Warning) s += "warning: ";
    if (severity == Severity::Info) s += "note: ";
    s += message;
    return s;
}

} // namespace fabscope
