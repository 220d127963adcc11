#include "common/suggest.h"

#include <gtest/gtest.h>

namespace arfabric {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("rate", "rate"), 0u);
  EXPECT_EQ(edit_distance("rat", "rate"), 1u);  // insertion
  EXPECT_EQ(edit_distance("stopat", "stop_at"), 1u);
  EXPECT_EQ(edit_distance("spines", "spine"), 1u);  // deletion
  EXPECT_EQ(edit_distance("role", "rule"), 1u);     // substitution
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

// The closest candidate within max(2, |word| / 3) edits, the first of
// equals; nothing for a word that is no near miss.
TEST(Suggest, NamesTheClosestPlausibleCandidate) {
  const std::vector<std::string_view> keys{"rate", "delay", "role",
                                           "link_bandwidth"};
  EXPECT_EQ(suggest("rat", keys), "rate");
  EXPECT_EQ(suggest("rol", keys), "role");
  EXPECT_EQ(suggest("link_bandwith", keys), "link_bandwidth");
  EXPECT_EQ(suggest("rale", keys), "rate");  // rate and role: first wins
  EXPECT_EQ(suggest("throughput", keys), std::nullopt);
  EXPECT_EQ(suggest("ab", keys), std::nullopt);  // 3 edits from any
  EXPECT_EQ(suggest("rate", {}), std::nullopt);
  // Long words allow more edits: 3 for an 11-letter word.
  EXPECT_EQ(suggest("lnk_bndwdth", keys), "link_bandwidth");
}

}  // namespace
}  // namespace arfabric
