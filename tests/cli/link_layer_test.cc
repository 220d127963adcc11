#include "cli/link_layer.h"

#include <gtest/gtest.h>

namespace arfabric::cli {
namespace {

std::optional<std::pair<std::uint16_t, std::size_t>> at(int link_type,
                                                        const Bytes& frame) {
  const auto p = network_packet(link_type, frame);
  if (!p) return std::nullopt;
  return std::pair{p->ethertype, p->offset};
}

using Found = std::optional<std::pair<std::uint16_t, std::size_t>>;

TEST(LinkLayer, EthernetWithAndWithoutTags) {
  Bytes f(12, 0);
  f.insert(f.end(), {0x08, 0x00, 0x45});
  EXPECT_EQ(at(1, f), (Found{{0x0800, 14}}));
  // 802.1ad outer, 802.1Q inner.
  Bytes tagged(12, 0);
  tagged.insert(tagged.end(),
                {0x88, 0xa8, 0, 5, 0x81, 0x00, 0, 7, 0x86, 0xdd, 0x60});
  EXPECT_EQ(at(1, tagged), (Found{{0x86dd, 22}}));
  // An 802.3 length: an LLC frame.
  Bytes llc(12, 0);
  llc.insert(llc.end(), {0x00, 0x40, 0xfe});
  EXPECT_EQ(at(1, llc), (Found{{0x0040, 14}}));
  // Cut inside the type or a tag.
  EXPECT_EQ(at(1, Bytes(13, 0)), std::nullopt);
  EXPECT_EQ(at(1, Bytes(tagged.begin(), tagged.begin() + 17)), std::nullopt);
}

// The tags are kept, outermost first; a TPID the caller names is a tag
// too; a frame cut short names the header or tag it cut.
TEST(LinkLayer, TagsAreKeptAndCutsNamed) {
  Bytes f(12, 0);
  f.insert(f.end(), {0x88, 0xa8, 0xa0, 0xc8, 0x88, 0xb6, 0x20, 0x00, 0x81, 0x00,
                     0xc0, 0x64, 0x08, 0x00});
  auto p = network_packet(1, f);
  ASSERT_TRUE(p);
  // 0x88b6 is no tag unless named: the packet's EtherType.
  EXPECT_EQ(p->ethertype, 0x88b6);
  EXPECT_EQ(p->offset, 18u);
  EXPECT_EQ(p->tags, (std::vector<LinkTag>{{0x88a8, 0xa0c8}}));
  p = network_packet(1, f, 0x88b6);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->ethertype, 0x0800);
  EXPECT_EQ(p->offset, 26u);
  EXPECT_EQ(p->tags,
            (std::vector<LinkTag>{
                {0x88a8, 0xa0c8}, {0x88b6, 0x2000}, {0x8100, 0xc064}}));

  const auto error = [](int link_type, const Bytes& frame) {
    const auto q = network_packet(link_type, frame);
    return q ? DecodeError{} : q.error();
  };
  EXPECT_EQ(error(1, Bytes(13, 0)),
            (DecodeError{"eth.header", 13,
                         "a frame of 13 bytes is shorter than the 14-byte "
                         "header"}));
  // Cut in the TCI, and in the EtherType after it: the missing field.
  EXPECT_EQ(error(1, Bytes(f.begin(), f.begin() + 15)),
            (DecodeError{"eth.vlan.tci", 14, "a tag (TPID 0x88a8) cut short"}));
  EXPECT_EQ(
      error(1, Bytes(f.begin(), f.begin() + 17)),
      (DecodeError{"eth.vlan.ethertype", 16, "a tag (TPID 0x88a8) cut short"}));
  const auto csig_cut =
      network_packet(1, Bytes(f.begin(), f.begin() + 19), 0x88b6);
  ASSERT_FALSE(csig_cut);
  EXPECT_EQ(csig_cut.error(), (DecodeError{"eth.csig.control", 18,
                                           "a tag (TPID 0x88b6) cut short"}));
  // The named tag is stepped over once: a second is the packet's type.
  Bytes twice(12, 0);
  twice.insert(twice.end(), {0x88, 0xb6, 0, 0, 0x88, 0xb6, 0, 0});
  p = network_packet(1, twice, 0x88b6);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->ethertype, 0x88b6);
  EXPECT_EQ(p->offset, 18u);
  EXPECT_EQ(error(113, Bytes(15, 0)).field, "sll.header");
  EXPECT_EQ(error(276, Bytes(19, 0)).field, "sll2.header");
  EXPECT_EQ(error(12, {}), (DecodeError{"ip.version", 0, "no IP header"}));
  EXPECT_EQ(error(9, {0xff, 0x03}),
            (DecodeError{"pcap.link_type", 0,
                         "link type 9 (PPP) is not read: Ethernet, raw IP and "
                         "Linux cooked captures are"}));
}

TEST(LinkLayer, RawIpByItsVersion) {
  for (int type : {12, 101, 228, 229}) {
    EXPECT_EQ(at(type, {0x45, 0}), (Found{{0x0800, 0}})) << type;
    EXPECT_EQ(at(type, {0x60, 0}), (Found{{0x86dd, 0}})) << type;
    EXPECT_EQ(at(type, {0x50}), std::nullopt) << type;
    EXPECT_EQ(at(type, {}), std::nullopt) << type;
  }
}

TEST(LinkLayer, LinuxCookedWithTheTagPutBack) {
  Bytes sll(16, 0);
  sll[14] = 0x08;
  EXPECT_EQ(at(113, sll), (Found{{0x0800, 16}}));
  Bytes sll_tag(16, 0);
  sll_tag[14] = 0x81;
  sll_tag.insert(sll_tag.end(), {0, 7, 0x08, 0x00});
  EXPECT_EQ(at(113, sll_tag), (Found{{0x0800, 20}}));
  EXPECT_EQ(at(113, Bytes(15, 0)), std::nullopt);

  Bytes sll2(20, 0);
  sll2[0] = 0x86;
  sll2[1] = 0xdd;
  EXPECT_EQ(at(276, sll2), (Found{{0x86dd, 20}}));
  Bytes sll2_tag(20, 0);
  sll2_tag[0] = 0x81;
  sll2_tag.insert(sll2_tag.end(), {0, 7, 0x08, 0x00});
  EXPECT_EQ(at(276, sll2_tag), (Found{{0x0800, 24}}));
  EXPECT_EQ(network_packet(276, sll2_tag)->tags,
            (std::vector<LinkTag>{{0x8100, 7}}));
  // A second tag behind the one put back.
  Bytes sll2_qinq(20, 0);
  sll2_qinq[0] = 0x88;
  sll2_qinq[1] = 0xa8;
  sll2_qinq.insert(sll2_qinq.end(), {0, 5, 0x81, 0x00, 0, 7, 0x86, 0xdd});
  EXPECT_EQ(at(276, sll2_qinq), (Found{{0x86dd, 28}}));
  EXPECT_EQ(network_packet(276, sll2_qinq)->tags,
            (std::vector<LinkTag>{{0x88a8, 5}, {0x8100, 7}}));
  EXPECT_EQ(network_packet(276, Bytes(sll2_qinq.begin(), sll2_qinq.end() - 1))
                .error(),
            (DecodeError{"sll2.vlan.ethertype", 26,
                         "a tag (TPID 0x8100) cut short"}));
  EXPECT_EQ(at(276, Bytes(19, 0)), std::nullopt);
}

TEST(LinkLayer, OtherLinkTypesAreNotKnown) {
  for (int type : {0, 105, 127, 147, 228 + 100}) {
    EXPECT_FALSE(known_link_type(type)) << type;
    EXPECT_EQ(at(type, Bytes(64, 0x45)), std::nullopt) << type;
  }
  for (int type : {1, 12, 101, 113, 228, 229, 276})
    EXPECT_TRUE(known_link_type(type)) << type;
}

}  // namespace
}  // namespace arfabric::cli
