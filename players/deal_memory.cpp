#include "players/deal_memory.hpp"

#include <fstream>
#include <sstream>

namespace bg {

bool DealMemory::open(const std::string& path, std::string& error) {
    std::ifstream in(path);
    for (std::string line; in && std::getline(in, line);) {
        std::istringstream fields(line);
        char kind = 0;
        int place = 0;
        std::string tiles;
        if (!(fields >> kind >> place >> tiles) || (kind != 'T' && kind != 'D')) {
            error = "not a line of a deal's memory: '" + line + "'";
            return false;
        }
        if (kind == 'T')
            recalled_.tiles[place] = tiles[0];
        else
            recalled_.threes[place] = tiles;
    }
    file_.open(path, std::ios::app);
    if (!file_)
        error = "cannot write it";
    return static_cast<bool>(file_);
}

void DealMemory::note(char kind, int place, const std::string& tiles) {
    file_ << kind << ' ' << place << ' ' << tiles << std::endl;
}

void DealMemory::hand(int tiles, int tiles_in_deal, int peel) {
    initial_ = tiles_in_deal - players_ * tiles;
    peels_ = peel;
    dumps_ = 0;
}

void DealMemory::peel(int peel, char tile, int bunch_after) {
    peels_ = peel;
    count_dumps(bunch_after);
    // The peel's draws, one a seat in seat order, were the last: this seat's is `seat_` in.
    note('T', draws() - players_ + seat_, std::string(1, tile));
}

void DealMemory::dumped(const std::string& three) {
    note('D', draws(), three);
    ++dumps_;
    foreseen_right_.reset();
    if (foreseen_.empty())
        return;
    std::string left = three;
    foreseen_right_ = true;
    for (char tile : foreseen_)
        if (auto at = left.find(tile); at != std::string::npos)
            left.erase(at, 1);
        else
            foreseen_right_ = false;
    foreseen_.clear();
}

std::string DealMemory::foreseen() const {
    const int first = draws();  // the place the next draw takes
    // Only an earlier rotation's: this game's sightings are of tiles already drawn.
    if (auto three = recalled_.threes.find(first); three != recalled_.threes.end())
        return three->second;
    std::string tiles;
    for (int place = first; place < first + 3; ++place)
        if (auto tile = recalled_.tiles.find(place); tile != recalled_.tiles.end())
            tiles += tile->second;
    return tiles;
}

}  // namespace bg
