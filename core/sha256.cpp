#include "core/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>
#include <memory>
#include <stdexcept>

namespace fabscope {

std::string sha256Hex(std::string_view bytes) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned int len = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), md.data(), &len, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    // Free this thread's OpenSSL state now: a large file is hashed on a thread of its own, and a
    // worker that outlives OpenSSL's exit handler would otherwise leave it behind (LeakSanitizer
    // saw 904 bytes from CRYPTO_zalloc once under a loaded ctest run).
    OPENSSL_thread_stop();
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(len * 2);
    for (unsigned int i = 0; i < len; ++i) {
        out += kHex[md[i] >> 4];
        out += kHex[md[i] & 0xf];
    }
    return out;
}

} // namespace fabscope
