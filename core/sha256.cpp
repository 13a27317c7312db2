#include "core/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>

namespace fabscope {

namespace {

std::string hex(const unsigned char* md, unsigned int len) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(len * 2);
    for (unsigned int i = 0; i < len; ++i) {
        out += kHex[md[i] >> 4];
        out += kHex[md[i] & 0xf];
    }
    return out;
}

} // namespace

std::string sha256Hex(std::string_view bytes) { return sha256Hex(bytes, {}); }

std::string sha256Hex(std::string_view bytes, const std::function<void()>& beforeBlock) {
    constexpr std::size_t kBlock = std::size_t{4} << 20;
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned int len = 0;
    const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    // Free this thread's OpenSSL state on the way out, also when beforeBlock gives the hash up: a
    // large file is hashed on a thread of its own, and a worker that outlives OpenSSL's exit
    // handler would otherwise leave it behind (LeakSanitizer saw 904 bytes from CRYPTO_zalloc
    // once under a loaded ctest run).
    const struct StopThreadState {
        ~StopThreadState() { OPENSSL_thread_stop(); }
    } stopThreadState;
    bool ok = ctx && EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) == 1;
    for (std::size_t at = 0; ok && at < bytes.size(); at += kBlock) {
        if (beforeBlock) beforeBlock();
        ok = EVP_DigestUpdate(ctx.get(), bytes.data() + at, std::min(kBlock, bytes.size() - at)) == 1;
    }
    ok = ok && EVP_DigestFinal_ex(ctx.get(), md.data(), &len) == 1;
    if (!ok) throw std::runtime_error("SHA-256 failed");
    return hex(md.data(), len);
}

} // namespace fabscope
