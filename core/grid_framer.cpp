#include "core/grid_framer.hpp"

#include <variant>

#include "core/grid.hpp"

namespace bg {

GridFramer::Status GridFramer::feed(std::string_view& bytes) {
    if (!sized_) {
        const std::size_t take = std::min(bytes.size(), grid_header_size - text_.size());
        text_.append(bytes.substr(0, take));
        bytes.remove_prefix(take);
        // Digits are checked as they come, so "p\n" fails now, not at the end of the stream.
        std::string header = text_;
        header.resize(grid_header_size, '0');
        const auto size = parse_grid_size(header);
        if (const auto* bad = std::get_if<GridError>(&size)) {
            error_ = bad->message;
            return Status::failed;
        }
        if (text_.size() < grid_header_size)
            return Status::more;
        sized_ = true;
        cells_left_ = std::get<GridSize>(size).cells();
        text_.reserve(grid_header_size + cells_left_);
    }
    const std::size_t take = std::min(bytes.size(), cells_left_);
    text_.append(bytes.substr(0, take));
    bytes.remove_prefix(take);
    cells_left_ -= take;
    return cells_left_ == 0 ? Status::done : Status::more;
}

std::string GridFramer::take() {
    std::string text = std::move(text_);
    *this = GridFramer();
    return text;
}

}  // namespace bg
