#pragma once
// Structured messages an import produces: the CLI prints them as FILE:LINE: text, the GUI lists them.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace fabscope {

enum class Severity : std::uint8_t { Info, Warning, Error };

struct Diagnostic {
    std::string file;
    std::int64_t line = 0;  // 1-based; 0 when the message is about the whole file
    Severity severity = Severity::Error;
    std::string message;

    [[nodiscard]] std::string format() const;  // "file:line: message" (warnings say so)
};

// Thrown by an importer when the input cannot be imported; the import is rolled back.
class ImportError : public std::runtime_error {
public:
    ImportError(std::string file, std::int64_t line, const std::string& message)
        : std::runtime_error(message), diagnostic_{std::move(file), line, Severity::Error, message} {}
    [[nodiscard]] const Diagnostic& diagnostic() const { return diagnostic_; }

private:
    Diagnostic diagnostic_;
};

// Thrown when an import is cancelled through its progress callback.
class ImportCancelled : public std::runtime_error {
public:
    ImportCancelled() : std::runtime_error("import cancelled") {}
};

// Thrown by the store on SQLite failures (disk full, read-only, corrupt file).
class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace fabscope
