//===- BackendTest.cpp - The "interpreter" backend through libtkrt --------===//
//
// Host code written for the GPU runs unchanged on the CPU: a Context with
// the interpreter backend, Buffers, a Module loaded from metadata naming a
// tk IR file, and Kernel::launch. This binary links the
// TkInterpreterAutoRegister object library, so the backend is registered
// before main().
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/Backend.h"

#include "tk/runtime.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <fstream>

namespace {

const char *kScaleIR = R"(
func.func @scale(%x: !tk.ptr<f32>, %y: !tk.ptr<f32>, %n: i32, %factor: f32)
    attributes {tk.kernel, tk.arg_names = ["x_ptr", "y_ptr", "n", "factor"]} {
  %pid = tk.program_id 0 : i32
  %c8 = arith.constant 8 : i32
  %base = arith.muli %pid, %c8 : i32
  %lanes = tk.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %bases = tk.splat %base : i32 -> tensor<8xi32>
  %offs = arith.addi %bases, %lanes : tensor<8xi32>
  %xs = tk.splat %x : !tk.ptr<f32> -> tensor<8x!tk.ptr<f32>>
  %xp = tk.addptr %xs, %offs : tensor<8x!tk.ptr<f32>>, tensor<8xi32>
  %v = tk.load %xp : tensor<8x!tk.ptr<f32>> -> tensor<8xf32> loc("scale.tk":7:9)
  %fs = tk.splat %factor : f32 -> tensor<8xf32>
  %r = arith.mulf %v, %fs : tensor<8xf32>
  %ys = tk.splat %y : !tk.ptr<f32> -> tensor<8x!tk.ptr<f32>>
  %yp = tk.addptr %ys, %offs : tensor<8x!tk.ptr<f32>>, tensor<8xi32>
  tk.store %yp, %r : tensor<8x!tk.ptr<f32>>, tensor<8xf32>
  return
}
)";

/// Writes scale.tk.mlir and scale.json (metadata with only tk_ir) into a
/// fresh folder; returns the metadata path.
std::string writeModule() {
  llvm::SmallString<128> folder;
  EXPECT_FALSE(
      llvm::sys::fs::createUniqueDirectory("tk-interp-backend", folder));
  tk::Metadata metadata;
  metadata.name = "scale";
  metadata.arch = "sm_90a";
  metadata.tkIr = "scale.tk.mlir";
  metadata.args = {{"x_ptr", tk::ArgType::pointerTo(tk::ScalarKind::F32)},
                   {"y_ptr", tk::ArgType::pointerTo(tk::ScalarKind::F32)},
                   {"n", tk::ArgType::value(tk::ScalarKind::I32)},
                   {"factor", tk::ArgType::value(tk::ScalarKind::F32)}};
  metadata.gridRank = 1;
  std::string json = (folder + "/scale.json").str();
  std::ofstream(json) << metadata.toJson();
  std::ofstream((folder + "/scale.tk.mlir").str()) << kScaleIR;
  return json;
}

TEST(InterpreterBackendTest, RunsKernelsLoadedThroughTheRuntime) {
  ASSERT_TRUE(tk::isBackendRegistered("interpreter"));
  tk::Context context = tk::Context::createWithBackend("interpreter");
  EXPECT_TRUE(context.isInterpreter());
  tk::Module module = tk::Module::load(context, writeModule());
  tk::Kernel kernel = module.kernel("scale");

  std::vector<float> input(16);
  for (int i = 0; i < 16; ++i)
    input[i] = static_cast<float>(i);
  tk::Buffer x = context.alloc(16 * sizeof(float));
  tk::Buffer y = context.alloc(16 * sizeof(float));
  x.upload(input);
  kernel.launch({2}, x.as<float>(), y.as<float>(), 16, 0.5f);
  context.sync();
  std::vector<float> output = y.download<float>();
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(output[i], 0.5f * static_cast<float>(i));

  // The interpreter's bounds check surfaces as a tk::Error from launch.
  tk::Buffer small = context.alloc(12 * sizeof(float));
  try {
    kernel.launch({2}, small.as<float>(), y.as<float>(), 16, 1.0f);
    FAIL() << "expected an out-of-bounds error";
  } catch (const tk::Error &error) {
    EXPECT_EQ(std::string(error.what()),
              "scale.tk:7:9: error: out-of-bounds load in program (1, 0, 0): "
              "lane 4 reads byte offset 48 past the end of a 48-byte buffer "
              "(x_ptr + 12 elements)");
  }
}

TEST(InterpreterBackendTest, FreedBuffersAreNoLongerAccessible) {
  tk::Context context = tk::Context::createWithBackend("interpreter");
  tk::Module module = tk::Module::load(context, writeModule());
  tk::Buffer y = context.alloc(16 * sizeof(float));
  tk::DevicePtr stale;
  {
    tk::Buffer x = context.alloc(16 * sizeof(float));
    stale = x.ptr();
  }
  try {
    module.kernel().launch({1}, tk::TypedPtr<float>(stale), y.as<float>(), 8,
                           1.0f);
    FAIL() << "expected an error for a freed buffer";
  } catch (const tk::Error &error) {
    EXPECT_NE(std::string(error.what()).find("out-of-bounds load"),
              std::string::npos)
        << error.what();
  }
}

TEST(InterpreterBackendTest, BadIRIsAnErrorAtLoad) {
  tk::Context context = tk::Context::createWithBackend("interpreter");
  std::string json = writeModule();
  std::ofstream(llvm::sys::path::parent_path(json).str() + "/scale.tk.mlir")
      << "func.func @scale(";
  try {
    tk::Module::load(context, json);
    FAIL() << "expected a load error";
  } catch (const tk::Error &error) {
    EXPECT_NE(std::string(error.what()).find("the interpreter cannot load"),
              std::string::npos)
        << error.what();
  }
}

} // namespace
