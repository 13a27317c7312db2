#include "views/report/pdf_pagination.h"

#include <algorithm>

namespace fabscope {

std::vector<Placement> paginate(const std::vector<PieceBox>& pieces, double pageHeight) {
    std::vector<Placement> out;
    int page = 0;
    double y = 0;
    int lastOnPage = -1;  // last piece placed on the current page
    auto newPage = [&] {
        ++page;
        y = 0;
        lastOnPage = -1;
    };
    const int n = static_cast<int>(pieces.size());
    for (int i = 0; i < n; ++i) {
        const PieceBox& p = pieces[static_cast<std::size_t>(i)];
        // Room for this piece and the chain of pieces it keeps with, up to the first ordinary one.
        double need = p.height;
        for (int k = i; k + 1 < n && pieces[static_cast<std::size_t>(k)].keepWithNext; ++k)
            need += pieces[static_cast<std::size_t>(k + 1)].height;
        need = std::min(need, pageHeight);
        if (lastOnPage >= 0 && y + need > pageHeight + 1e-6) newPage();
        // A row that opens a page gets its table's header again.
        if (p.header >= 0 && lastOnPage < 0) {
            out.push_back({p.header, page, y});
            y += pieces[static_cast<std::size_t>(p.header)].height;
            lastOnPage = p.header;
        }
        out.push_back({i, page, y});
        if (p.height <= pageHeight - y) {
            y += p.height;
        } else {  // taller than a page: continue it on the next pages
            double drawn = pageHeight - y;
            while (drawn < p.height - 1e-6) {
                newPage();
                out.push_back({i, page, -drawn});
                drawn += pageHeight;
            }
            y = p.height - (drawn - pageHeight);
        }
        lastOnPage = i;
    }
    return out;
}

} // namespace fabscope
