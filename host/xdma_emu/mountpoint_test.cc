#include "host/xdma_emu/mountpoint.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace otpu::xdma_emu {
namespace {

namespace fs = std::filesystem;

class MountpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/tmp/otpu_mountpoint_test.XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(MountpointTest, EmptyDirectoryIsAcceptedAsAnAbsolutePath) {
  fs::create_directory(dir_ + "/mnt");
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  StatusOr<std::string> abs = CheckMountpoint("mnt");
  fs::current_path(cwd);
  ASSERT_TRUE(abs.ok()) << abs.status().message();
  EXPECT_EQ(*abs, fs::canonical(dir_ + "/mnt").string());
}

TEST_F(MountpointTest, MissingDirectoryIsNotFound) {
  StatusOr<std::string> abs = CheckMountpoint(dir_ + "/nope");
  ASSERT_FALSE(abs.ok());
  EXPECT_EQ(abs.status().code(), StatusCode::kNotFound);
  EXPECT_NE(abs.status().message().find(dir_ + "/nope: mount point does not exist"),
            std::string::npos);
}

TEST_F(MountpointTest, RegularFileIsRefused) {
  std::ofstream(dir_ + "/file") << "x";
  StatusOr<std::string> abs = CheckMountpoint(dir_ + "/file");
  ASSERT_FALSE(abs.ok());
  EXPECT_EQ(abs.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(abs.status().message().find("not a directory"), std::string::npos);
}

TEST_F(MountpointTest, NonEmptyDirectoryIsBusy) {
  fs::create_directory(dir_ + "/mnt");
  std::ofstream(dir_ + "/mnt/data") << "keep me";
  StatusOr<std::string> abs = CheckMountpoint(dir_ + "/mnt");
  ASSERT_FALSE(abs.ok());
  EXPECT_EQ(abs.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(abs.status().message().find("busy: the mount point is not empty"), std::string::npos);
}

TEST_F(MountpointTest, ExistingMountPointIsBusy) {
  // /proc is a mount point on every Linux system this runs on.
  StatusOr<std::string> abs = CheckMountpoint("/proc");
  ASSERT_FALSE(abs.ok());
  EXPECT_EQ(abs.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(abs.status().message().find("already mounted"), std::string::npos);
}

}  // namespace
}  // namespace otpu::xdma_emu
