#pragma once
#include <functional>
#include <string>
#include <string_view>

namespace fabscope {
// Lower-case hex SHA-256 of a byte string (OpenSSL's libcrypto does the work).
std::string sha256Hex(std::string_view bytes);
// The same, calling `beforeBlock` before each 4 MiB of it (~2 ms of hashing): a hash beside other
// work can wait there while that work needs every core, or throw to give the hash up.
std::string sha256Hex(std::string_view bytes, const std::function<void()>& beforeBlock);
} // namespace fabscope
