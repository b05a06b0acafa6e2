//===- Executor.cpp - Running a compiled kernel over a grid ---------------===//
//
// One frame per run, shared by all program instances: the prologue fills
// the constant slots once, then the body runs for each program id. Also the
// error messages, which need the kernel's parameters to describe addresses.
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/Program.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace tk::interp;

AuxData::~AuxData() = default;

const char *tk::interp::elementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::I1: return "i1";
  case ElementKind::I8: return "i8";
  case ElementKind::I16: return "i16";
  case ElementKind::I32: return "i32";
  case ElementKind::I64: return "i64";
  case ElementKind::F16: return "f16";
  case ElementKind::BF16: return "bf16";
  case ElementKind::F32: return "f32";
  case ElementKind::F64: return "f64";
  case ElementKind::F8E4M3: return "f8e4m3";
  case ElementKind::F8E5M2: return "f8e5m2";
  case ElementKind::Ptr: return "ptr";
  }
  return "?";
}

std::string Shape::indexString(int64_t flat) const {
  llvm::SmallVector<int64_t, 4> index(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    index[d] = flat % dims[d];
    flat /= dims[d];
  }
  std::string text = "(";
  for (size_t d = 0; d < index.size(); ++d)
    text += (d ? ", " : "") + std::to_string(index[d]);
  return text + ")";
}

std::string Machine::programIdString() const {
  return "(" + std::to_string(programId[0]) + ", " +
         std::to_string(programId[1]) + ", " + std::to_string(programId[2]) +
         ")";
}

bool Machine::fail(const Instruction &in, const llvm::Twine &message) {
  const SourceSite &site = program->sites[in.site];
  std::string text;
  if (!site.position.empty())
    text = site.position + ": ";
  text += "error: " + message.str();
  if (!site.inlinedAt.empty())
    text += "\n" + site.inlinedAt + ": note: inlined from here";
  error = std::move(text);
  return false;
}

namespace {

std::string plural(int64_t n, const char *noun) {
  return std::to_string(n) + " " + noun + (n == 1 || n == -1 ? "" : "s");
}

/// "(in_ptr + 781 elements)": the address relative to the pointer argument
/// that points into `range`, or the buffer's label.
std::string describeAddress(const Machine &m, const MemoryRange &range,
                            uint64_t address, unsigned bytes) {
  const KernelProgram &program = *m.program;
  const KernelParam *best = nullptr;
  uint64_t bestValue = 0;
  for (size_t i = 0; i < program.params.size(); ++i) {
    if (!program.params[i].isPointer)
      continue;
    uint64_t value = m.args[i];
    if (value < range.base || value > range.end())
      continue;
    // Prefer the closest argument at or below the address.
    bool better = !best || (value <= address &&
                            (bestValue > address || value > bestValue));
    if (better) {
      best = &program.params[i];
      bestValue = value;
    }
  }
  if (best) {
    int64_t delta = static_cast<int64_t>(address - bestValue);
    std::string sign = delta < 0 ? " - " : " + ";
    uint64_t magnitude = delta < 0 ? uint64_t(0) - uint64_t(delta) : delta;
    if (magnitude % bytes == 0)
      return "(" + best->name + sign +
             plural(static_cast<int64_t>(magnitude / bytes), "element") + ")";
    return "(" + best->name + sign +
           plural(static_cast<int64_t>(magnitude), "byte") + ")";
  }
  if (!range.label.empty())
    return "(in " + range.label + ")";
  return "";
}

std::string hexAddress(uint64_t address) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format_hex(address, 2);
  return text;
}

} // namespace

bool tk::interp::reportBadAccess(const Instruction &in, Machine &m,
                                 uint64_t lane, uint64_t address,
                                 unsigned bytes, const char *what,
                                 const char *verb) {
  const auto &info = *static_cast<const MemoryAccessInfo *>(in.aux);
  std::string laneText = "lane " + std::to_string(lane);
  if (info.shape.dims.size() > 1)
    laneText += " " + info.shape.indexString(static_cast<int64_t>(lane));
  std::string where = " in program " + m.programIdString() + ": " + laneText;

  if (auto range = m.memory->find(address, bytes)) {
    // In bounds, so the address must be misaligned.
    std::string relative = describeAddress(m, *range, address, bytes);
    return m.fail(in, std::string("misaligned ") + what + where + " " + verb +
                          " address " + hexAddress(address) +
                          (relative.empty() ? "" : " " + relative) +
                          ", which is not a multiple of " +
                          plural(bytes, "byte"));
  }

  std::string message = std::string("out-of-bounds ") + what + where + " " +
                        verb + " ";
  if (address < 4096)
    return m.fail(in, message + "address " + hexAddress(address) +
                          " through a null pointer");
  auto range = m.memory->nearest(address);
  if (!range)
    return m.fail(in, message + "address " + hexAddress(address) +
                          ", but no buffer is bound");
  std::string relative = describeAddress(m, *range, address, bytes);
  std::string size = std::to_string(range->size) + "-byte buffer";
  std::string tail = relative.empty() ? "" : " " + relative;
  if (address >= range->base)
    return m.fail(in, message + "byte offset " +
                          std::to_string(address - range->base) +
                          " past the end of a " + size + tail);
  return m.fail(in, message + "byte offset -" +
                        std::to_string(range->base - address) +
                        " before the start of a " + size + tail);
}

Kernel::Kernel(std::unique_ptr<KernelProgram> program)
    : compiled(std::move(program)) {}
Kernel::~Kernel() = default;

const std::string &Kernel::name() const { return compiled->name; }

llvm::ArrayRef<KernelParam> Kernel::params() const {
  return compiled->params;
}

/// The arguments against what the kernel was compiled assuming of them
/// (KernelParam::spec): a specialized kernel given other values computes
/// something else without a word, so they are refused.
static llvm::Error checkSpecs(const KernelProgram &program,
                              llvm::ArrayRef<uint64_t> args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelParam &param = program.params[i];
    if (param.spec == KernelParam::Spec::None)
      continue;
    if (param.isPointer) {
      if (param.spec == KernelParam::Spec::Div16 && args[i] % 16 != 0)
        return llvm::createStringError(
            "pointer argument " + param.name + " is not 16-byte aligned, "
            "but kernel '" + program.name + "' was compiled assuming it");
      continue;
    }
    unsigned bits = 8 * storageBytes(param.element);
    int64_t value = param.isUnsigned || bits >= 64
                        ? int64_t(args[i])
                        : llvm::SignExtend64(args[i], bits);
    std::string shown = param.isUnsigned ? std::to_string(uint64_t(value))
                                         : std::to_string(value);
    bool one = param.spec == KernelParam::Spec::One;
    if (one ? value != 1 : value % 16 != 0)
      return llvm::createStringError(
          "argument " + param.name + "=" + shown + " breaks the assumption " +
          param.name + (one ? "=1" : "=16") + " that kernel '" +
          program.name + "' was compiled with (it must " +
          (one ? "equal 1)" : "be a multiple of 16)"));
  }
  return llvm::Error::success();
}

/// After a clustered launch: every program of a cluster ran each multicast
/// load as often as the others (programs that never ran it count 0).
static bool checkMulticastCounts(const MulticastLog &log, int64_t gridX,
                                 Machine &m) {
  int64_t size = m.program->clusterSize;
  for (const auto &entry : log.counts) {
    const std::map<int64_t, uint64_t> &perProgram = entry.second;
    auto [cluster, y, z, site] = entry.first;
    int64_t lo = cluster * size, hi = std::min(gridX, lo + size);
    auto times = [](uint64_t n) {
      return n == 1 ? std::string("once") : std::to_string(n) + " times";
    };
    auto countOf = [&](int64_t x) {
      auto it = perProgram.find(x);
      return it == perProgram.end() ? uint64_t(0) : it->second;
    };
    for (int64_t x = lo + 1; x < hi; ++x) {
      if (countOf(x) == countOf(lo))
        continue;
      m.programId[0] = x;
      m.programId[1] = y;
      m.programId[2] = z;
      return m.fail(*static_cast<const Instruction *>(site),
                    "multicast load: program " + m.programIdString() +
                        " ran it " + times(countOf(x)) + ", program (" +
                        std::to_string(lo) + ", " + std::to_string(y) + ", " +
                        std::to_string(z) + ") of its thread-block cluster " +
                        times(countOf(lo)) + "; multicast=True needs every program of a "
                        "cluster to run it equally often");
    }
  }
  return true;
}

llvm::Error Kernel::run(const LaunchGrid &grid, llvm::ArrayRef<uint64_t> args,
                        const MemoryRegistry &memory,
                        const RunOptions &options) const {
  const KernelProgram &program = *compiled;
  if (args.size() != program.params.size())
    return llvm::createStringError(
        "kernel '" + program.name + "' takes " +
        std::to_string(program.params.size()) + " arguments, got " +
        std::to_string(args.size()));
  int64_t gridSize[3] = {grid.x, grid.y, grid.z};
  for (int64_t n : gridSize)
    if (n < 0)
      return llvm::createStringError("kernel '" + program.name +
                                     "': negative grid dimension " +
                                     std::to_string(n));
  // The GPU's launch refuses this grid (the cubin declares the cluster):
  // the same message as libtkrt's (checkGrid).
  if (program.clusterSize > 1 && grid.x % program.clusterSize != 0)
    return llvm::createStringError(
        "kernel '" + program.name + "' runs in thread-block clusters of " +
        std::to_string(program.clusterSize) +
        " programs along x (cluster_size=); grid (" + std::to_string(grid.x) +
        "," + std::to_string(grid.y) + "," + std::to_string(grid.z) +
        ") has " + std::to_string(grid.x) + " along x, not a multiple of " +
        std::to_string(program.clusterSize));
  if (llvm::Error error = checkSpecs(program, args))
    return error;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return llvm::Error::success();

  // The frame, 64-byte aligned (slots are laid out at multiples of 64).
  std::vector<char> storage(program.frameBytes + 64, 0);
  char *frame = storage.data() + (-reinterpret_cast<uintptr_t>(storage.data()) & 63);

  for (size_t i = 0; i < args.size(); ++i) {
    const KernelParam &param = program.params[i];
    unsigned bytes = param.isPointer ? 8 : storageBytes(param.element);
    uint64_t value = args[i];
    if (!param.isPointer && param.element == ElementKind::I1)
      value &= 1;
    std::memcpy(frame + program.paramSlots[i], &value, bytes);
  }

  std::vector<RangeCache> caches(program.numRangeCaches);
  Machine m;
  m.frame = frame;
  m.program = &program;
  m.args = args.data();
  m.memory = &memory;
  m.rangeCaches = caches.data();
  m.printStream = options.printStream ? options.printStream : &llvm::outs();
  MulticastLog multicast;
  if (program.clusterSize > 1)
    m.multicast = &multicast;
  for (int d = 0; d < 3; ++d)
    m.gridSize[d] = gridSize[d];

  auto failure = [&]() {
    m.printStream->flush();
    return llvm::createStringError(m.error);
  };
  for (const Instruction &in : program.prologue)
    if (!in.handler(in, m))
      return failure();

  const Instruction *code = program.body.data();
  const size_t size = program.body.size();
  for (int64_t x = 0; x < grid.x; ++x) {
    for (int64_t y = 0; y < grid.y; ++y) {
      for (int64_t z = 0; z < grid.z; ++z) {
        m.programId[0] = x;
        m.programId[1] = y;
        m.programId[2] = z;
        m.pc = 0;
        while (m.pc < size) {
          const Instruction &in = code[m.pc++];
          if (!in.handler(in, m))
            return failure();
        }
      }
    }
  }
  if (m.multicast && !checkMulticastCounts(*m.multicast, grid.x, m))
    return failure();
  m.printStream->flush();
  return llvm::Error::success();
}
