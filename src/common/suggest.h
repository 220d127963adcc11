// "Did you mean ...?": the closest of a list of known words to a word that
// is not one of them, for errors on unknown keys (the scenario parser, the
// daemon's configuration file).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace arfabric {

// The Levenshtein distance: single-character insertions, deletions and
// substitutions that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` (the first of equals), if it is a
// plausible typo: at most max(2, |word| / 3) edits away; else nullopt.
std::optional<std::string_view> suggest(
    std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace arfabric
