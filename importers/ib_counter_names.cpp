#include "importers/ib_counter_names.h"

#include <cctype>

namespace fabscope {

std::optional<IbField> ibCounterField(std::string_view field) {
    if (field.empty() || field == "PortSelect" || field.starts_with("CounterSelect")) return std::nullopt;
    if (auto c = canonicalCounter(field)) return IbField{*c, aliasScale(field)};
    std::string snake;
    for (std::size_t i = 0; i < field.size(); ++i) {
        const auto ch = static_cast<unsigned char>(field[i]);
        if (!std::isalnum(ch)) {
            if (!snake.empty() && snake.back() != '_') snake += '_';
            continue;
        }
        // A capital after a lower-case letter or a digit starts a word ("VL15Dropped" -> vl15_dropped).
        if (std::isupper(ch) && i > 0 && !snake.empty() && snake.back() != '_' &&
            (std::islower(static_cast<unsigned char>(field[i - 1])) || std::isdigit(static_cast<unsigned char>(field[i - 1])) ||
             (i + 1 < field.size() && std::islower(static_cast<unsigned char>(field[i + 1])))))
            snake += '_';
        snake += static_cast<char>(std::tolower(ch));
    }
    std::string unit;
    if (field.find("Pkts") != std::string_view::npos || field.find("Dropped") != std::string_view::npos) unit = "packets";
    else if (field.find("Error") != std::string_view::npos || field.find("Discard") != std::string_view::npos) unit = "errors";
    return IbField{CounterInfo{snake, unit, ""}, 1};
}

} // namespace fabscope
