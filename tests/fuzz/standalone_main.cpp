// A small driver so fuzz targets build with g++ (no libFuzzer needed): it replays every file of
// the given corpus directories, then mutates them (bit flips, truncation, duplication, splicing,
// interesting bytes) for a bounded time. Built with clang's -fsanitize=fuzzer instead, the same
// target runs under libFuzzer and this file is left out.
//   fuzz_X [--seconds N] [--seed S] DIR...
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::string mutate(std::string s, const std::vector<std::string>& corpus, std::mt19937_64& rng) {
    auto pick = [&](std::size_t n) { return n == 0 ? std::size_t{0} : static_cast<std::size_t>(rng() % n); };
    static const char* kInteresting[] = {"\0", "\r", "\n", "\"", "#", "[", "]", "(", ")", ",", "-1", "4294967295",
                                         "18446744073709551615", "1e308", "nan", "??x???", "\xff\xfe", "0x"};
    const int rounds = 1 + static_cast<int>(rng() % 4);
    for (int r = 0; r < rounds; ++r) {
        switch (rng() % 7) {
        case 0: if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << (rng() % 8)); break;
        case 1: s.resize(pick(s.size() + 1)); break;
        case 2: if (!s.empty()) { const auto at = pick(s.size()); s.insert(at, s.substr(at, pick(64))); } break;
        case 3: { const auto& other = corpus[pick(corpus.size())];
                  if (!other.empty()) s.insert(pick(s.size() + 1), other.substr(pick(other.size()), pick(256))); } break;
        case 4: { const char* t = kInteresting[pick(std::size(kInteresting))];
                  s.insert(pick(s.size() + 1), std::string(t, std::max<std::size_t>(1, std::strlen(t)))); } break;
        case 5: if (!s.empty()) s.erase(pick(s.size()), pick(32)); break;
        case 6: { const auto line = s.find('\n', pick(s.size() + 1));
                  if (line != std::string::npos) s.insert(line, std::string(pick(2000), 'A')); } break;
        }
    }
    return s;
}

} // namespace

int main(int argc, char** argv) {
    double seconds = 10;
    std::uint64_t seed = 12345;
    std::vector<std::string> corpus;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--seconds" && i + 1 < argc) seconds = std::stod(argv[++i]);
        else if (a == "--seed" && i + 1 < argc) seed = std::stoull(argv[++i]);
        else {
            for (const auto& e : std::filesystem::recursive_directory_iterator(a)) {
                if (!e.is_regular_file()) continue;
                std::string bytes(static_cast<std::size_t>(e.file_size()), '\0');
                std::ifstream(e.path(), std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
                corpus.push_back(std::move(bytes));
            }
        }
    }
    if (corpus.empty()) corpus.emplace_back();
    for (const auto& c : corpus) LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(c.data()), c.size());
    std::mt19937_64 rng(seed);
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    long runs = 0;
    while (std::chrono::steady_clock::now() < end) {
        std::string input = mutate(corpus[rng() % corpus.size()], corpus, rng);
        if (input.size() > 256 * 1024) input.resize(256 * 1024);  // keep iterations fast
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
        ++runs;
    }
    std::printf("%zu corpus inputs replayed, %ld mutated inputs run without a crash\n", corpus.size(), runs);
    return 0;
}
