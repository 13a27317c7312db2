#pragma once
// An ibdiagnet2 output folder (/var/tmp/ibdiagnet2/) is one input: what each of its files is, and
// whether FabScope reads it. The run's fabric and counters come from ibdiagnet2.db_csv (and its
// forwarding tables from ibdiagnet2.fdbs); the same fabric in ibnetdiscover and LST form and the
// same counters in .pm are skipped when the db_csv is imported with them. docs/FORMATS.md.
#include <optional>
#include <string>
#include <string_view>

namespace fabscope {

struct IbdiagnetFileRole {
    enum class Use { Read, SameAsDbCsv, NotUsed } use = Use::Read;
    std::string_view what;  // "partition keys"
};

// The role of an ibdiagnet output file by its name ("ibdiagnet2.pkey"), nullopt for other files.
std::optional<IbdiagnetFileRole> ibdiagnetFileRole(std::string_view fileName);

// The pause between ibdiagnet's two counter reads (PM_INFO, then PM_DELTA after it), from the
// run's ibdiagnet2.log beside `dbCsvPath` ("-I- Going to sleep for 1 seconds until next counters
// sample"); nullopt when there is no such log or line.
std::optional<double> ibdiagnetCounterPause(std::string_view dbCsvPath);

// "2025-03-31 23:43:18 UTC +0000" (RUN_INFO Date, "Running timestamp") -> UNIX seconds.
std::optional<double> parseIbdiagnetDate(std::string_view text);

}  // namespace fabscope
