//===- DescriptorHandlers.cpp - tensor descriptor loads and stores --------===//
//
// The descriptor operand holds, as i64, the base address, the shape and the
// strides (in elements): [base, shape_0..shape_{n-1}, stride_0..]. A block
// access at element offsets `index` (i32, one per dimension) visits the
// block in row-major order; an element whose tensor coordinate
// index[d] + j_d lies outside [0, shape[d]) in any dimension reads 0
// (loads) or is skipped (stores), as TMA does. Every other element is
// checked against the registered buffers like any load or store, so a
// descriptor whose shape or strides overstate its buffer is reported at the
// first element that leaves it.
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/ElementTraits.h"
#include "compiler/interpreter/Handlers.h"

#include <algorithm>
#include <cstring>
#include <string>

using namespace tk::interp;

namespace {

/// Calls `visit(i, address)` for each in-bounds element i of the block,
/// `outside(i)` for the others; stops at the first false.
template <typename Visit, typename Outside>
bool forEachElement(const Instruction &in, Machine &m, unsigned bytes,
                    Visit visit, Outside outside) {
  const auto *info = static_cast<const DescriptorAccessInfo *>(in.aux);
  const int64_t rank = int64_t(info->shape.dims.size());
  const int64_t *desc = m.at<int64_t>(in.operands[0]);
  const uint64_t base = uint64_t(desc[0]);
  const int64_t *shape = desc + 1, *strides = desc + 1 + rank;
  const int32_t *index = m.at<int32_t>(in.operands[1]);
  int64_t coord[8];
  for (int64_t d = 0; d < rank; ++d)
    coord[d] = index[d];
  for (uint32_t i = 0, e = in.count; i < e; ++i) {
    bool inside = true;
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d) {
      inside &= coord[d] >= 0 && coord[d] < shape[d];
      offset += coord[d] * strides[d];
    }
    if (inside ? !visit(i, base + uint64_t(offset) * bytes) : !outside(i))
      return false;
    // Next coordinate, row-major.
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++coord[d] < index[d] + info->shape.dims[d])
        break;
      coord[d] = index[d];
    }
  }
  return true;
}

template <unsigned Bytes>
bool descriptorLoad(const Instruction &in, Machine &m) {
  using T = typename BitsOfSize<Bytes>::Type;
  T *__restrict r = m.at<T>(in.result);
  return forEachElement(
      in, m, Bytes,
      [&](uint32_t i, uint64_t address) {
        if (!checkAccess(in, m, i, address, Bytes, "load", "reads"))
          return false;
        std::memcpy(&r[i], reinterpret_cast<const void *>(address), Bytes);
        return true;
      },
      [&](uint32_t i) {
        r[i] = T(0);
        return true;
      });
}

bool multicastCheck(const Instruction &in, Machine &m) {
  MulticastLog *log = m.multicast;
  if (!log)
    return true;
  if (!std::equal(m.programId, m.programId + 3, log->program)) {
    std::copy(m.programId, m.programId + 3, log->program);
    log->executions.clear();
  }
  const int32_t *index = m.at<int32_t>(in.operands[0]);
  llvm::ArrayRef<int32_t> indices(index, in.count);
  int64_t cluster = m.programId[0] / int64_t(in.imm);
  MulticastLog::Key key{cluster, m.programId[1], m.programId[2], &in,
                        log->executions[&in]++};
  log->counts[{cluster, m.programId[1], m.programId[2], &in}]
             [m.programId[0]] = std::get<4>(key) + 1;
  auto [it, inserted] = log->first.try_emplace(key);
  if (inserted) {
    it->second.x = m.programId[0];
    it->second.indices.assign(indices.begin(), indices.end());
    return true;
  }
  if (llvm::ArrayRef<int32_t>(it->second.indices) == indices)
    return true;
  auto show = [](llvm::ArrayRef<int32_t> values) {
    std::string text = "[";
    for (size_t i = 0; i < values.size(); ++i)
      text += (i ? ", " : "") + std::to_string(values[i]);
    return text + "]";
  };
  return m.fail(in, "multicast load: program " + m.programIdString() +
                        " loads the block at " + show(indices) +
                        " where program (" + std::to_string(it->second.x) +
                        ", " + std::to_string(m.programId[1]) + ", " +
                        std::to_string(m.programId[2]) +
                        ") of its thread-block cluster loaded " +
                        show(it->second.indices) + " (execution " +
                        std::to_string(std::get<4>(key) + 1) +
                        " of this load); multicast=True promises the same "
                        "block to every program of a cluster");
}

template <unsigned Bytes>
bool descriptorStore(const Instruction &in, Machine &m) {
  using T = typename BitsOfSize<Bytes>::Type;
  const T *values = m.at<T>(in.operands[2]);
  return forEachElement(
      in, m, Bytes,
      [&](uint32_t i, uint64_t address) {
        if (!checkAccess(in, m, i, address, Bytes, "store", "writes"))
          return false;
        std::memcpy(reinterpret_cast<void *>(address), &values[i], Bytes);
        return true;
      },
      [](uint32_t) { return true; });
}

} // namespace

Handler tk::interp::selectDescriptorLoad(unsigned elementBytes) {
  switch (elementBytes) {
  case 1: return &descriptorLoad<1>;
  case 2: return &descriptorLoad<2>;
  case 4: return &descriptorLoad<4>;
  case 8: return &descriptorLoad<8>;
  }
  return nullptr;
}

Handler tk::interp::multicastCheckHandler() { return &multicastCheck; }

Handler tk::interp::selectDescriptorStore(unsigned elementBytes) {
  switch (elementBytes) {
  case 1: return &descriptorStore<1>;
  case 2: return &descriptorStore<2>;
  case 4: return &descriptorStore<4>;
  case 8: return &descriptorStore<8>;
  }
  return nullptr;
}
