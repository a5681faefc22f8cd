#include "base/status.h"

#include <gtest/gtest.h>

namespace otpu {
namespace {

StatusOr<int> Half(int v) {
  if (v % 2) return InvalidArgument("odd value " + std::to_string(v));
  return v / 2;
}

StatusOr<int> Quarter(int v) {
  ASSIGN_OR_RETURN(int h, Half(v));
  ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

Status CheckEven(int v) {
  RETURN_IF_ERROR(Half(v).status());
  return OkStatus();
}

TEST(Status, MacrosPropagateTheFirstError) {
  EXPECT_EQ(*Quarter(8), 2);
  StatusOr<int> bad = Quarter(6);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "odd value 3");
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(CheckEven(3).ok());
  EXPECT_TRUE(CheckEven(4).ok());
}

TEST(Status, WithContextPrefixesTheMessage) {
  Status s = NotFound("no such file").WithContext("run.otpuprof");
  EXPECT_EQ(s.message(), "run.otpuprof: no such file");
  EXPECT_TRUE(OkStatus().WithContext("x").ok());
}

}  // namespace
}  // namespace otpu
