#include "sim/rtl/dram_model.h"
#include "sim/rtl/stall_percent.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace otpu::rtl {
namespace {

constexpr int kChunk = 32;

// A port-B read request for chunk `addr` with `tag`.
MemRequests Read(uint32_t addr, uint32_t tag) {
  MemRequests r;
  r.b_rd_valid = true;
  r.b_rd_addr = addr;
  r.b_rd_tag = tag;
  return r;
}

TEST(DramModel, IdealAnswersAfterTheLatencyInOrder) {
  SparseMemory mem(1 << 20);
  mem.Write32(64, 0xA1B2C3D4u);
  DramOptions opts;
  opts.latency = 5;
  DramModel dram(&mem, kChunk, opts);
  MemOffer offer;
  std::vector<std::pair<int64_t, uint32_t>> got;  // (cycle, tag)
  for (int64_t c = 0; c < 20; ++c) {
    dram.Offer(c, &offer);
    EXPECT_TRUE(offer.b_rd_ready && offer.b_wr_ready && offer.a_ready);
    if (offer.b_rsp_valid) got.push_back({c, offer.b_rsp_tag});
    if (offer.b_rsp_valid && offer.b_rsp_tag == 1) {
      EXPECT_EQ(offer.b_rsp_data[0], 0xD4);
    }
    dram.Accept(c, offer, c < 3 ? Read(64, uint32_t(c)) : MemRequests{});
  }
  EXPECT_EQ(got, (std::vector<std::pair<int64_t, uint32_t>>{{5, 0}, {6, 1}, {7, 2}}));
  EXPECT_TRUE(dram.Idle());
}

TEST(DramModel, StallingWithholdsReadyAboutAsOftenAsAsked) {
  SparseMemory mem(1 << 20);
  DramOptions opts;
  opts.stall_percent = 30;
  opts.seed = 7;
  DramModel dram(&mem, kChunk, opts);
  MemOffer offer;
  int withheld = 0;
  for (int64_t c = 0; c < 10000; ++c) {
    dram.Offer(c, &offer);
    withheld += !offer.b_rd_ready;
  }
  EXPECT_GT(withheld, 2700);
  EXPECT_LT(withheld, 3300);
}

TEST(DramModel, StallingReturnsResponsesOutOfOrder) {
  SparseMemory mem(1 << 20);
  DramOptions opts;
  opts.stall_percent = 10;
  opts.latency = 8;
  DramModel dram(&mem, kChunk, opts);
  MemOffer offer;
  std::vector<uint32_t> order;
  uint32_t next_tag = 0;
  for (int64_t c = 0; c < 400; ++c) {
    dram.Offer(c, &offer);
    if (offer.b_rsp_valid) order.push_back(offer.b_rsp_tag);
    const bool ask = next_tag < 64;
    dram.Accept(c, offer, ask ? Read(0, next_tag) : MemRequests{});
    if (ask && offer.b_rd_ready) ++next_tag;
  }
  ASSERT_EQ(order.size(), 64u);
  EXPECT_EQ(std::set<uint32_t>(order.begin(), order.end()).size(), 64u);
  EXPECT_FALSE(std::is_sorted(order.begin(), order.end()));
}

TEST(DramModel, ReadSeesWriteAcceptedInTheSameCycle) {
  SparseMemory mem(1 << 20);
  DramModel dram(&mem, kChunk, {});
  MemOffer offer;
  dram.Offer(0, &offer);
  MemRequests req = Read(128, 3);
  req.a_valid = true;
  req.a_we = true;
  req.a_addr = 132;
  req.a_wdata = 0x11223344u;
  req.a_be = 0x5;  // bytes 0 and 2
  dram.Accept(0, offer, req);
  EXPECT_EQ(mem.Read32(132), 0x00220044u);
  for (int64_t c = 1; c <= 16; ++c) dram.Offer(c, &offer);
  ASSERT_TRUE(offer.b_rsp_valid);
  EXPECT_EQ(offer.b_rsp_data[4], 0x44);
  EXPECT_EQ(offer.b_rsp_data[6], 0x22);
}

TEST(DramModel, PortBWriteHonoursByteEnables) {
  SparseMemory mem(1 << 20);
  mem.Write32(0, 0xFFFFFFFFu);
  DramModel dram(&mem, kChunk, {});
  MemOffer offer;
  dram.Offer(0, &offer);
  MemRequests req;
  req.b_wr_valid = true;
  req.b_wr_addr = 0;
  req.b_wr_data.assign(kChunk, 0xAB);
  req.b_wr_be.assign(kChunk, 0);
  req.b_wr_be[1] = 1;
  dram.Accept(0, offer, req);
  EXPECT_EQ(mem.Read32(0), 0xFFFFABFFu);
  EXPECT_EQ(dram.stats().b_writes, 1);
}

TEST(DramModel, AccessOutsideMemoryIsReportedWithItsAddress) {
  SparseMemory mem(4096);
  DramModel dram(&mem, kChunk, {});
  MemOffer offer;
  dram.Offer(0, &offer);
  dram.Accept(0, offer, Read(4096, 0));
  ASSERT_FALSE(dram.status().ok());
  EXPECT_NE(dram.status().message().find("port-B read at 0x1000"), std::string::npos)
      << dram.status().message();
}

TEST(DramModel, NamesItsBehaviour) {
  DramOptions opts;
  EXPECT_EQ(opts.Name(), "ideal");
  opts.stall_percent = 25;
  EXPECT_EQ(opts.Name(), "stall 25");
  opts.axi = true;
  EXPECT_EQ(opts.Name(), "axi stall 25");
  opts.stall_percent = 0;
  EXPECT_EQ(opts.Name(), "axi");
}

// Reads chunk addresses `addrs`, one offered per cycle while ready; the cycle of each response.
std::vector<int64_t> AxiResponses(const DramOptions& opts, const std::vector<uint32_t>& addrs) {
  SparseMemory mem(1 << 20);
  DramModel dram(&mem, kChunk, opts);
  MemOffer offer;
  std::vector<int64_t> at(addrs.size(), -1);
  size_t next = 0;
  for (int64_t c = 0; c < 1000 && (next < addrs.size() || !dram.Idle()); ++c) {
    dram.Offer(c, &offer);
    if (offer.b_rsp_valid) at[offer.b_rsp_tag] = c;
    MemRequests req = next < addrs.size() ? Read(addrs[next], uint32_t(next)) : MemRequests{};
    if (req.b_rd_valid && offer.b_rd_ready) ++next;
    dram.Accept(c, offer, req);
  }
  return at;
}

TEST(DramModel, AxiAnswersAfterTheLatency) {
  DramOptions opts;
  opts.axi = true;
  opts.latency = 7;
  EXPECT_EQ(AxiResponses(opts, {0}), (std::vector<int64_t>{8}));  // 1 cycle of beat, then 7
}

TEST(DramModel, AxiCapsEachChannelsBeats) {
  DramOptions opts;
  opts.axi = true;
  opts.latency = 1;
  opts.beats_per_cycle = 0.25;  // a beat every 4 cycles per channel
  std::vector<uint32_t> same(8), both(8);
  for (uint32_t i = 0; i < 8; ++i) {
    same[i] = i * 128;  // every beat on channel 0
    both[i] = i * 64;   // channels 0 and 1 in turn
  }
  const std::vector<int64_t> one = AxiResponses(opts, same), two = AxiResponses(opts, both);
  EXPECT_GE(one.back(), 8 * 4);
  EXPECT_LT(two.back(), one.back());
  EXPECT_GE(two.back(), 4 * 4);
}

TEST(DramModel, AxiBacklogWithholdsReady) {
  SparseMemory mem(1 << 20);
  DramOptions opts;
  opts.axi = true;
  opts.beats_per_cycle = 0.1;
  opts.queue_beats = 2;
  DramModel dram(&mem, kChunk, opts);
  MemOffer offer;
  int refused = 0;
  for (int64_t c = 0; c < 20; ++c) {
    dram.Offer(c, &offer);
    refused += !offer.b_rd_ready;
    dram.Accept(c, offer, Read(0, uint32_t(c)));
  }
  EXPECT_GT(refused, 10);
}

TEST(DramModel, AxiAnswersAFreeChannelBeforeABusyOne) {
  DramOptions opts;
  opts.axi = true;
  opts.latency = 2;
  opts.beats_per_cycle = 0.25;
  // Two reads on channel 0, then one on channel 1: the third is answered before the second.
  const std::vector<int64_t> at = AxiResponses(opts, {0, 128, 64});
  EXPECT_LT(at[2], at[1]);
}

TEST(DramOptions, NameParsesBack) {
  for (const char* name : {"ideal", "stall 20", "axi", "axi stall 5"}) {
    StatusOr<DramOptions> o = ParseDramName(name);
    ASSERT_TRUE(o.ok()) << name;
    EXPECT_EQ(o->Name(), name);
  }
  for (const char* bad : {"", "fast", "stall 0", "stall 100", "axi stall", "ideal stall 5", "stall 5 x"}) {
    StatusOr<DramOptions> o = ParseDramName(bad);
    ASSERT_FALSE(o.ok()) << bad;
    EXPECT_EQ(o.status().message(), std::string("'") + bad +
                                        "' is not a memory (ideal, stall N, axi or axi stall N; N in 1..99)");
  }
}

TEST(DramOptions, StallPercentIsZeroTo99) {
  EXPECT_TRUE(CheckStallPercent(0).ok());
  EXPECT_TRUE(CheckStallPercent(kMaxStallPercent).ok());
  for (int bad : {-1, 100}) {
    EXPECT_EQ(CheckStallPercent(bad).message(),
              "--stall " + std::to_string(bad) + ": expected a percent of cycles from 0 to 99");
  }
}

}  // namespace
}  // namespace otpu::rtl
