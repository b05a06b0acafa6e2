//===- ArchTest.cpp - Architecture names and compatibility ----------------===//

#include "tk/Arch.h"

#include <gtest/gtest.h>

using namespace tk;

namespace {

TEST(Arch, Parse) {
  std::optional<GpuArch> a = parseGpuArch("sm_90a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->major, 9);
  EXPECT_EQ(a->minor, 0);
  EXPECT_EQ(a->suffix, 'a');
  a = parseGpuArch("sm_86");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->major, 8);
  EXPECT_EQ(a->minor, 6);
  EXPECT_EQ(a->suffix, 0);
  a = parseGpuArch("sm_100f");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->major, 10);
  EXPECT_EQ(a->minor, 0);
  EXPECT_EQ(a->suffix, 'f');
  EXPECT_EQ(toString(*a), "sm_100f");
  for (const char *bad : {"", "sm_", "sm_9", "sm_1000", "sm_90b", "compute_90",
                          "sm_9x", "sm_090", "SM_90", "sm_a"})
    EXPECT_FALSE(parseGpuArch(bad)) << bad;
}

std::string mismatch(const char *arch, bool isPtx, int major, int minor) {
  return archMismatch(*parseGpuArch(arch), isPtx, major, minor)
      .value_or("runs");
}

TEST(Arch, ArchSpecificNeedsExactCapability) {
  EXPECT_EQ(mismatch("sm_90a", false, 9, 0), "runs");
  EXPECT_EQ(mismatch("sm_90a", false, 8, 0),
            "cubin was built for sm_90a but the device is sm_80 (sm_90a code "
            "runs only on compute capability 9.0)");
  EXPECT_EQ(mismatch("sm_90a", true, 10, 0),
            "PTX was built for sm_90a but the device is sm_100 (sm_90a code "
            "runs only on compute capability 9.0)");
}

TEST(Arch, CubinRunsWithinItsMajorVersion) {
  EXPECT_EQ(mismatch("sm_80", false, 8, 0), "runs");
  EXPECT_EQ(mismatch("sm_80", false, 8, 9), "runs");
  EXPECT_EQ(mismatch("sm_86", false, 8, 0),
            "cubin was built for sm_86 but the device is sm_80 (a cubin runs "
            "only on devices of the same major compute capability 8.x; "
            "compile for sm_80 or ship PTX)");
  EXPECT_EQ(mismatch("sm_80", false, 9, 0),
            "cubin was built for sm_80 but the device is sm_90 (a cubin runs "
            "only on devices of the same major compute capability 8.x; "
            "compile for sm_90 or ship PTX)");
}

TEST(Arch, PtxRunsOnNewerDevices) {
  EXPECT_EQ(mismatch("sm_80", true, 8, 0), "runs");
  EXPECT_EQ(mismatch("sm_80", true, 9, 0), "runs");
  EXPECT_EQ(mismatch("sm_90", true, 8, 6),
            "PTX was built for sm_90 but the device is sm_86 (PTX for sm_90 "
            "needs compute capability 9.0 or newer)");
}

TEST(Arch, FamilySpecific) {
  EXPECT_EQ(mismatch("sm_100f", false, 10, 3), "runs");
  EXPECT_EQ(mismatch("sm_100f", false, 12, 0),
            "cubin was built for sm_100f but the device is sm_120 (sm_100f "
            "code runs only on compute capability 10.x with x >= 0)");
}

} // namespace
