#include "core/dictionary.hpp"

#include <bit>
#include <cstring>

namespace bg {

namespace {

constexpr char image_magic[8] = {'B', 'G', 'D', 'I', 'C', 'T', '0', '1'};
constexpr std::size_t header_words = 7;  // magic, slots, blob size, words, skipped, dups, print
constexpr std::size_t header_size = header_words * sizeof(std::uint64_t);

// FNV-1a, then the SplitMix64 finaliser so that the low bits (the slot index) are well mixed.
std::uint64_t hash_word(std::string_view word) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (char c : word)
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    return h ^ (h >> 31);
}

std::uint64_t load_u64(const unsigned char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Appends the line as a length byte and upper-case letters; false when it is not a word.
bool normalise_into(std::string_view line, const Dictionary::Options& options, std::string& blob) {
    if (line.size() > Dictionary::max_word_length)
        return false;
    const std::size_t start = blob.size();
    blob.push_back(static_cast<char>(line.size()));
    for (char c : line) {
        if (c >= 'a' && c <= 'z') {
            blob.push_back(static_cast<char>(c - 'a' + 'A'));
        } else if (c >= 'A' && c <= 'Z' && !options.lowercase_only) {
            blob.push_back(c);
        } else {
            blob.resize(start);
            return false;
        }
    }
    return true;
}

}  // namespace

Dictionary Dictionary::from_text(std::string_view text, Options options) {
    Dictionary dict;
    std::string blob;
    blob.reserve(text.size() + 1);
    std::size_t line_number = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        ++line_number;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            continue;
        if (!normalise_into(line, options, blob)) {
            if (dict.stats_.skipped++ == 0)
                dict.stats_.first_skipped_line = line_number;
        }
    }
    dict.insert_all(blob);
    return dict;
}

void Dictionary::insert_all(std::string_view normalised) {
    std::size_t candidates = 0;
    for (std::size_t i = 0; i < normalised.size();
         i += 1 + static_cast<unsigned char>(normalised[i]))
        ++candidates;
    // Load factor at most 1/2 keeps probe sequences short.
    own_slots_.assign(std::bit_ceil(std::max<std::size_t>(16, candidates * 2)), 0);
    own_blob_.clear();
    own_blob_.reserve(normalised.size());
    slot_mask_ = own_slots_.size() - 1;
    for (std::size_t i = 0; i < normalised.size();) {
        const std::size_t length = static_cast<unsigned char>(normalised[i]);
        const std::string_view word = normalised.substr(i + 1, length);
        i += 1 + length;
        const std::uint64_t h = hash_word(word);
        std::size_t slot = h & slot_mask_;
        bool duplicate = false;
        while (const std::uint64_t entry = own_slots_[slot]) {
            const std::size_t offset = (entry & 0xffffffffu) - 1;
            if ((entry >> 32) == (h >> 32) &&
                static_cast<unsigned char>(own_blob_[offset]) == length &&
                std::memcmp(&own_blob_[offset + 1], word.data(), length) == 0) {
                duplicate = true;
                break;
            }
            slot = (slot + 1) & slot_mask_;
        }
        if (duplicate) {
            ++stats_.duplicates;
            continue;
        }
        own_slots_[slot] = (h >> 32) << 32 | (own_blob_.size() + 1);
        own_blob_.push_back(static_cast<char>(length));
        own_blob_.insert(own_blob_.end(), word.begin(), word.end());
        ++stats_.words;
        stats_.fingerprint += h;
    }
    slots_ = reinterpret_cast<const unsigned char*>(own_slots_.data());
    blob_ = own_blob_.data();
    blob_size_ = own_blob_.size();
}

bool Dictionary::contains(std::string_view word) const {
    if (word.empty() || word.size() > max_word_length)
        return false;
    const std::uint64_t h = hash_word(word);
    for (std::size_t slot = h & slot_mask_;; slot = (slot + 1) & slot_mask_) {
        const std::uint64_t entry = load_u64(slots_ + slot * sizeof(std::uint64_t));
        if (entry == 0)
            return false;
        if ((entry >> 32) != (h >> 32))
            continue;
        const std::size_t offset = (entry & 0xffffffffu) - 1;
        if (static_cast<unsigned char>(blob_[offset]) == word.size() &&
            std::memcmp(blob_ + offset + 1, word.data(), word.size()) == 0)
            return true;
    }
}

std::vector<std::string> Dictionary::words() const {
    std::vector<std::string> out;
    out.reserve(stats_.words);
    for (std::size_t i = 0; i < blob_size_;) {
        const std::size_t length = static_cast<unsigned char>(blob_[i]);
        out.emplace_back(blob_ + i + 1, length);
        i += 1 + length;
    }
    return out;
}

std::vector<unsigned char> Dictionary::image() const {
    const std::size_t slot_bytes = (slot_mask_ + 1) * sizeof(std::uint64_t);
    std::vector<unsigned char> out(header_size + slot_bytes + blob_size_);
    const std::uint64_t header[header_words - 1] = {slot_mask_ + 1,    blob_size_,
                                                    stats_.words,      stats_.skipped,
                                                    stats_.duplicates, stats_.fingerprint};
    std::memcpy(out.data(), image_magic, sizeof image_magic);
    std::memcpy(out.data() + sizeof image_magic, header, sizeof header);
    std::memcpy(out.data() + header_size, slots_, slot_bytes);
    if (blob_size_ > 0)  // an empty list has no blob at all
        std::memcpy(out.data() + header_size + slot_bytes, blob_, blob_size_);
    return out;
}

std::optional<Dictionary> Dictionary::from_image(std::span<const unsigned char> bytes) {
    if (bytes.size() < header_size || std::memcmp(bytes.data(), image_magic, 8) != 0)
        return std::nullopt;
    const std::uint64_t slot_count = load_u64(bytes.data() + 8);
    const std::uint64_t blob_size = load_u64(bytes.data() + 16);
    if (slot_count == 0 || !std::has_single_bit(slot_count) ||
        slot_count > (bytes.size() - header_size) / sizeof(std::uint64_t) ||
        header_size + slot_count * sizeof(std::uint64_t) + blob_size != bytes.size())
        return std::nullopt;
    Dictionary dict;
    dict.stats_.words = load_u64(bytes.data() + 24);
    dict.stats_.skipped = load_u64(bytes.data() + 32);
    dict.stats_.duplicates = load_u64(bytes.data() + 40);
    dict.stats_.fingerprint = load_u64(bytes.data() + 48);
    dict.slots_ = bytes.data() + header_size;
    dict.slot_mask_ = slot_count - 1;
    dict.blob_ = reinterpret_cast<const char*>(dict.slots_ + slot_count * sizeof(std::uint64_t));
    dict.blob_size_ = blob_size;
    return dict;
}

}  // namespace bg
