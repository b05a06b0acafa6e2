//===- Program.h - The interpreter's flat program form -----------*- C++ -*-===//
//
// Internal to the interpreter. A kernel compiles to a KernelProgram: a
// prologue (constants, computed once per run) and a body (run once per
// program instance) of Instructions. Every SSA value owns a fixed region
// ("slot") of one frame, a byte arena laid out at compile time; an
// instruction names its result and operands by slot offset and carries a
// handler chosen for its element types, so running an operation is one
// indirect call and a tight loop over contiguous arrays.
//
// Structured control flow is lowered to jumps: `pc` is the index of the next
// body instruction, and control handlers assign it.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_INTERPRETER_PROGRAM_H
#define TK_COMPILER_INTERPRETER_PROGRAM_H

#include "compiler/interpreter/Interpreter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <string>
#include <vector>

namespace tk::interp {

struct Instruction;
struct Machine;

/// Executes one instruction; returns false after recording an error in the
/// machine.
using Handler = bool (*)(const Instruction &, Machine &);

constexpr uint32_t kNoSlot = ~0u;

/// Op-specific constant data an instruction points to (shapes, strides,
/// strings); owned by the KernelProgram.
struct AuxData {
  virtual ~AuxData();
};

struct Instruction {
  Handler handler = nullptr;
  /// Byte offset of the result slot in the frame.
  uint32_t result = kNoSlot;
  /// Byte offsets of the operand slots; kNoSlot when absent.
  uint32_t operands[3] = {kNoSlot, kNoSlot, kNoSlot};
  /// Number of elements the instruction processes (usually the result's).
  uint32_t count = 0;
  /// Index into KernelProgram::sites, for messages.
  uint32_t site = 0;
  /// An immediate: a jump target, an axis, an element size, ...
  int64_t imm = 0;
  const AuxData *aux = nullptr;
};

/// Where an operation came from in the .tk source.
struct SourceSite {
  std::string position;   // "softmax.tk:9:9", or empty
  std::string inlinedAt;  // the call site when inlined from a helper
  std::string opName;     // "tk.load"
};

/// One memory buffer an instruction hit last (see MemoryRegistry).
struct RangeCache {
  uint64_t begin = 1, end = 0; // empty
};

struct KernelProgram {
  std::string name;
  /// Programs per thread-block cluster along x (the module's
  /// tk.cluster_size): a launch's grid x must be a multiple of it, as on
  /// the GPU.
  int64_t clusterSize = 1;
  std::vector<KernelParam> params;
  /// Frame offset of each parameter's slot.
  std::vector<uint32_t> paramSlots;
  std::vector<Instruction> prologue;
  std::vector<Instruction> body;
  size_t frameBytes = 0;
  std::vector<SourceSite> sites; // sites[0] is "unknown"
  std::vector<std::unique_ptr<AuxData>> auxStorage;
  /// Memory instructions number their RangeCache in [0, numRangeCaches).
  unsigned numRangeCaches = 0;

  template <typename T, typename... Args> T *makeAux(Args &&...args) {
    auto aux = std::make_unique<T>(std::forward<Args>(args)...);
    T *raw = aux.get();
    auxStorage.push_back(std::move(aux));
    return raw;
  }
};

/// What `desc.load(..., multicast=True)` promised, over one launch: that
/// the programs of a thread-block cluster load the same blocks. The first
/// program of a cluster to execute a multicast load the k-th time records
/// its indices; the others must match them.
struct MulticastLog {
  /// (cluster along x, program y, program z, the load's instruction, k).
  using Key = std::tuple<int64_t, int64_t, int64_t, const void *, uint64_t>;
  struct First {
    int64_t x = 0; ///< the recording program's x
    llvm::SmallVector<int32_t, 5> indices;
  };
  std::map<Key, First> first;
  /// (cluster along x, y, z, the load) -> program x -> its executions: at
  /// the end of the launch every program of a cluster must have run each
  /// multicast load equally often (on the GPU a peer would wait forever).
  std::map<std::tuple<int64_t, int64_t, int64_t, const void *>,
           std::map<int64_t, uint64_t>>
      counts;
  /// How often the running program executed each multicast load.
  llvm::DenseMap<const void *, uint64_t> executions;
  int64_t program[3] = {-1, -1, -1};
};

/// The state of one run.
struct Machine {
  char *frame = nullptr;
  size_t pc = 0;
  int64_t programId[3] = {0, 0, 0};
  int64_t gridSize[3] = {1, 1, 1};
  const KernelProgram *program = nullptr;
  const uint64_t *args = nullptr;
  const MemoryRegistry *memory = nullptr;
  RangeCache *rangeCaches = nullptr;
  llvm::raw_ostream *printStream = nullptr;
  /// Set when the kernel runs in clusters (its multicast loads are
  /// checked).
  MulticastLog *multicast = nullptr;
  /// The first error, as a complete message.
  std::string error;

  template <typename T> T *at(uint32_t offset) const {
    return reinterpret_cast<T *>(frame + offset);
  }

  /// Records "<site>: error: <message>" (plus where it was inlined from)
  /// and returns false, for handlers to `return m.fail(in, ...)`.
  bool fail(const Instruction &in, const llvm::Twine &message);

  /// "(x, y, z)" of the running program instance.
  std::string programIdString() const;
};

/// A shape, with row-major strides.
struct Shape {
  llvm::SmallVector<int64_t, 4> dims;

  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= d;
    return n;
  }
  /// "(i, j)" for flat index `flat` (empty parens for scalars).
  std::string indexString(int64_t flat) const;
};

/// The checked memory instructions (load, store, atomics) share this aux:
/// the shape for lane messages and the number of their RangeCache.
struct MemoryAccessInfo : AuxData {
  Shape shape;
  unsigned cacheIndex = 0;
};

/// Produces the message for an access by lane `lane` of [address, address +
/// bytes) that lies in no registered buffer (out of bounds) or is not
/// aligned to `bytes`. `verb` is "reads", "writes" or "updates".
bool reportBadAccess(const Instruction &in, Machine &m, uint64_t lane,
                     uint64_t address, unsigned bytes, const char *what,
                     const char *verb);

/// Checks that [address, address + bytes) is aligned and in a buffer,
/// consulting the instruction's cache first.
inline bool checkAccess(const Instruction &in, Machine &m, uint64_t lane,
                        uint64_t address, unsigned bytes, const char *what,
                        const char *verb) {
  const auto *info = static_cast<const MemoryAccessInfo *>(in.aux);
  RangeCache &cache = m.rangeCaches[info->cacheIndex];
  if (address >= cache.begin && address + bytes <= cache.end &&
      (address & (bytes - 1)) == 0)
    return true;
  if ((address & (bytes - 1)) == 0) {
    if (auto range = m.memory->find(address, bytes)) {
      cache.begin = range->base;
      cache.end = range->end();
      return true;
    }
  }
  return reportBadAccess(in, m, lane, address, bytes, what, verb);
}

} // namespace tk::interp

#endif // TK_COMPILER_INTERPRETER_PROGRAM_H
