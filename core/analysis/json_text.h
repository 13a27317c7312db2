#pragma once
// JSON written straight to text, for documents too large to build as an nlohmann tree first: the
// judged k=16 store's 872 findings hold ~8,000 ports, and building their tree and dumping it took
// ~24 ms of a ~160 ms analyze; this writer takes ~6.5 ms (docs/PERFORMANCE.md).
// The text is the same, byte for byte, as nlohmann's dump(indent) of the same document (ensure
// ASCII off): the same line breaks and indents, numbers and escapes, so the contract of
// docs/FINDINGS.md does not depend on which writer made it (tests/tst_json_text.cpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fabscope {

class JsonText {
public:
    // `indent` spaces per level, as nlohmann's dump(indent); -1: one line, no spaces.
    explicit JsonText(int indent) : indent_(indent) {}

    JsonText& beginObject() { return open('{'); }
    JsonText& endObject() { return close('}'); }
    JsonText& beginArray() { return open('['); }
    JsonText& endArray() { return close(']'); }
    // The next value's name, inside an object.
    JsonText& key(std::string_view name);

    JsonText& value(std::string_view s);
    JsonText& value(const char* s) { return value(std::string_view(s)); }
    JsonText& value(std::int64_t v);
    JsonText& value(int v) { return value(static_cast<std::int64_t>(v)); }
    // As jsonv::number(): an integral value as an integer, else nlohmann's shortest round trip;
    // null when not finite.
    JsonText& number(double v);

    // The document so far; call once every container is closed.
    [[nodiscard]] std::string take() { return std::move(out_); }

private:
    JsonText& open(char bracket);
    JsonText& close(char bracket);
    // Separator and indent before a value (not after a key, which wrote its own).
    void beforeValue();
    void newline(std::size_t depth);
    void escaped(std::string_view s);

    int indent_;
    std::string out_;
    std::vector<unsigned char> empty_;  // per open container: nothing written in it yet (1)
    bool afterKey_ = false;
};

} // namespace fabscope
