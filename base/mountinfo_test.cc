#include "base/mountinfo.h"

#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <gtest/gtest.h>

#include "base/testing/temp_dir.h"

namespace otpu {
namespace {

TEST(MountInfo, UnescapesSpaceTabNewlineAndBackslash) {
  EXPECT_EQ(UnescapeMountField(R"(/a\040b\011c\012d\134e)"), "/a b\tc\nd\\e");
}

TEST(MountInfo, KeepsTextThatIsNoEscape) {
  EXPECT_EQ(UnescapeMountField(R"(/a\9b\04)"), R"(/a\9b\04)");
}

TEST(MountInfo, ParsesAPathWithASpace) {
  const std::vector<MountEntry> entries = ParseMountInfo(
      "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
      "97 22 0:52 / /tmp/my\\040card/mnt rw,nosuid,nodev master:3 - fuse otpu-xdma-emu rw\n");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].id, 97);
  EXPECT_EQ(entries[1].parent_id, 22);
  EXPECT_EQ(entries[1].mount_point, "/tmp/my card/mnt");
  EXPECT_EQ(entries[1].fs_type, "fuse");
  EXPECT_EQ(entries[1].source, "otpu-xdma-emu");
}

TEST(MountInfo, SkipsLinesThatDoNotParse) {
  EXPECT_TRUE(ParseMountInfo("garbage\n22 1 8:1 / / rw no-separator\n").empty());
}

TEST(MountInfo, UnreadableTableIsInternalNamingIt) {
  StatusOr<std::vector<MountEntry>> entries = ReadMountInfo("/nonexistent/mountinfo");
  ASSERT_FALSE(entries.ok());
  EXPECT_EQ(entries.status().message(), "cannot read /nonexistent/mountinfo: No such file or directory");
}

TEST(MountInfo, ProcIsAMountPointAndATempDirIsNot) {
  testutil::TempDir tmp;
  EXPECT_TRUE(IsMountPoint("/proc"));
  EXPECT_FALSE(IsMountPoint(std::filesystem::canonical(tmp.path()).string()));
}

TEST(MountInfo, SeesABindMountOnAPathWithASpace) {
  testutil::TempDir tmp;
  const std::string dir = std::filesystem::canonical(tmp.path()).string() + "/with space";
  std::filesystem::create_directory(dir);
  if (::mount(tmp.path().c_str(), dir.c_str(), nullptr, MS_BIND, nullptr) != 0) {
    GTEST_SKIP() << "bind mount needs CAP_SYS_ADMIN: " << std::strerror(errno);
  }
  const bool seen = IsMountPoint(dir);
  ::umount2(dir.c_str(), MNT_DETACH);
  EXPECT_TRUE(seen);
  EXPECT_FALSE(IsMountPoint(dir));
}

}  // namespace
}  // namespace otpu
