#pragma once
// Pieces shared by the SONiC CLI table importers (`show pfc counters`, `show interfaces
// counters`, ...): `15,437` counts, rule lines, shell prompts and the node named by a file.
// Tokens come from splitWhitespace (importers/text_util.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabscope {

// "15,437" -> 15437, "0" -> 0; separators must split groups of three digits; nullopt otherwise.
std::optional<std::uint64_t> sonicCount(std::string_view cell);

// "-----------  -------" (the line under a table header).
bool sonicRule(std::string_view line);

// "admin@leaf01:~$ show interfaces counters": a shell prompt.
bool sonicPrompt(std::string_view firstToken);

// "dir/leaf01.portstat.txt" -> "leaf01".
std::string nodeFromFileName(std::string_view path);
// The switch a capture's path names, or '' when a `# node:` line names it (Importer::nameFromPath).
std::string nodeNamedByPath(std::string_view path, std::string_view text);

} // namespace fabscope
