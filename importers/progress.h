#pragma once
// How an importer reports how far it got, and learns that the user cancelled.
#include <functional>

namespace fabscope {

// Called with the fraction done (0..1); return false to cancel.
using ProgressFn = std::function<bool(double)>;

} // namespace fabscope
