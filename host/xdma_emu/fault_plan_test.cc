#include "host/xdma_emu/fault_plan.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace otpu::xdma_emu {
namespace {

Fault MustParse(const std::string& spec) {
  StatusOr<Fault> fault = ParseFault(spec);
  EXPECT_TRUE(fault.ok()) << fault.status().message();
  return fault.ok() ? *fault : Fault{};
}

TEST(ParseFault, ReadsEveryKind) {
  Fault eio = MustParse("eio:h2c:3");
  EXPECT_EQ(eio.kind, FaultKind::kEio);
  EXPECT_EQ(eio.file, DeviceFile::kH2c);
  EXPECT_EQ(eio.nth, 3);
  Fault short_read = MustParse("short:c2h:2");
  EXPECT_EQ(short_read.kind, FaultKind::kShort);
  EXPECT_EQ(short_read.file, DeviceFile::kC2h);
  EXPECT_EQ(MustParse("timeout:user:1").kind, FaultKind::kTimeout);
  Fault slow = MustParse("slow:user:25");
  EXPECT_EQ(slow.kind, FaultKind::kSlow);
  EXPECT_EQ(slow.delay_ms, 25);
  EXPECT_EQ(MustParse("hang").kind, FaultKind::kHang);
}

TEST(ParseFault, UnknownKindNamesTheSpecAndTheGrammar) {
  StatusOr<Fault> fault = ParseFault("explode:h2c:1");
  ASSERT_FALSE(fault.ok());
  EXPECT_EQ(fault.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(fault.status().message().find("explode:h2c:1"), std::string::npos);
  EXPECT_NE(fault.status().message().find("unknown fault 'explode'"), std::string::npos);
}

TEST(ParseFault, UnknownFileIsNamed) {
  StatusOr<Fault> fault = ParseFault("eio:bar0:1");
  ASSERT_FALSE(fault.ok());
  EXPECT_NE(fault.status().message().find("unknown device file 'bar0'"), std::string::npos);
}

TEST(ParseFault, RequestNumberMustBePositive) {
  for (const char* spec : {"eio:h2c:0", "eio:h2c:-1", "eio:h2c:x", "eio:h2c:", "slow:user:1.5"}) {
    StatusOr<Fault> fault = ParseFault(spec);
    ASSERT_FALSE(fault.ok()) << spec;
    EXPECT_NE(fault.status().message().find("not a positive whole number"), std::string::npos)
        << fault.status().message();
  }
}

TEST(ParseFault, WrongShapeShowsTheGrammar) {
  for (const char* spec : {"", "eio", "eio:h2c", "hang:user:1", "eio:h2c:1:2"}) {
    StatusOr<Fault> fault = ParseFault(spec);
    ASSERT_FALSE(fault.ok()) << spec;
    EXPECT_NE(fault.status().message().find("expected eio:FILE:N"), std::string::npos)
        << fault.status().message();
  }
}

TEST(FaultPlan, NthRequestOfItsFileOnly) {
  FaultPlan plan({MustParse("eio:h2c:2")});
  EXPECT_EQ(plan.Next(DeviceFile::kC2h).error, 0);
  EXPECT_EQ(plan.Next(DeviceFile::kH2c).error, 0);
  EXPECT_EQ(plan.Next(DeviceFile::kC2h).error, 0);
  EXPECT_EQ(plan.Next(DeviceFile::kH2c).error, EIO);
  EXPECT_EQ(plan.Next(DeviceFile::kH2c).error, 0);
}

TEST(FaultPlan, ShortTimeoutAndSlowActions) {
  FaultPlan plan({MustParse("short:c2h:1"), MustParse("timeout:user:2"), MustParse("slow:user:7")});
  EXPECT_TRUE(plan.Next(DeviceFile::kC2h).half);
  EXPECT_FALSE(plan.Next(DeviceFile::kC2h).half);
  FaultAction first = plan.Next(DeviceFile::kUser);
  EXPECT_EQ(first.error, 0);
  EXPECT_EQ(first.delay_ms, 7);
  FaultAction second = plan.Next(DeviceFile::kUser);
  EXPECT_EQ(second.error, ETIMEDOUT);
  EXPECT_EQ(second.delay_ms, 7);
  EXPECT_FALSE(plan.hang());
}

TEST(FaultPlan, HangIsAPlanWideSetting) {
  EXPECT_TRUE(FaultPlan({MustParse("hang")}).hang());
  FaultPlan plan({MustParse("hang")});
  FaultAction action = plan.Next(DeviceFile::kUser);
  EXPECT_EQ(action.error, 0);
  EXPECT_FALSE(action.half);
}

}  // namespace
}  // namespace otpu::xdma_emu
