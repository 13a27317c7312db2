#pragma once
#include <string>
#include <string_view>

namespace fabscope {
// Lower-case hex SHA-256 of a byte string (OpenSSL's libcrypto does the work).
std::string sha256Hex(std::string_view bytes);
} // namespace fabscope
