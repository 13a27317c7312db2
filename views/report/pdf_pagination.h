#pragma once
// Where each piece of a report goes on the pages: rows and images are never split (a piece
// that does not fit starts the next page), a table's header is repeated above rows that start a
// page, and headings/captions stay with what follows. Only a piece taller than a whole page is
// split, as it must be.
#include <vector>

namespace fabscope {

struct PieceBox {
    double height = 0;
    int header = -1;          // index of the piece to repeat above this one at the top of a page
    bool keepWithNext = false;
};

struct Placement {
    int piece = 0;
    int page = 0;
    double y = 0;             // top of the piece on its page
};

// Placements in drawing order (a repeated header appears once more). A piece taller than
// `pageHeight` gets one placement per page it covers, with y <= 0 for the continuation.
std::vector<Placement> paginate(const std::vector<PieceBox>& pieces, double pageHeight);

} // namespace fabscope
