// Reading and writing the safetensors format (huggingface/safetensors): an 8-byte
// little-endian header length, a JSON header {name: {dtype, shape, data_offsets}} (plus an
// ignored "__metadata__"), then the tensor bytes. Files are memory mapped read-only; BF16,
// F16 and F32 tensors convert to float on request.
#ifndef OTPU_WORKLOADS_MODELS_SAFETENSORS_H_
#define OTPU_WORKLOADS_MODELS_SAFETENSORS_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace otpu::models {

// The safetensors element types. Only kBF16, kF16 and kF32 convert to float; the others are
// recognised so their sizes can be checked.
enum class Dtype {
  kBool,
  kU8,
  kI8,
  kI16,
  kU16,
  kF16,
  kBF16,
  kI32,
  kU32,
  kF32,
  kF64,
  kI64,
  kU64,
  kF8E4M3,
  kF8E5M2
};

// The header spelling ("BF16", "F8_E4M3", ...).
const char* DtypeName(Dtype dtype);
// Bytes per element.
size_t DtypeSize(Dtype dtype);
// Parses a header spelling; false for an unknown one.
bool ParseDtype(const std::string& name, Dtype* dtype);

// bf16 bits -> float (exact). Inline: a random Qwen3-0.6B converts 600 M values twice.
inline float Bf16ToFloat(uint16_t bits) { return std::bit_cast<float>(uint32_t(bits) << 16); }
// float -> bf16 bits, round to nearest even; NaN stays NaN.
inline uint16_t FloatToBf16(float value) {
  uint32_t u = std::bit_cast<uint32_t>(value);
  if (value != value) return uint16_t((u >> 16) | 0x0040);  // keep it a (quiet) NaN
  u += 0x7FFF + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}
// IEEE half bits -> float (exact, subnormals included).
float F16ToFloat(uint16_t bits);
// float -> IEEE half bits, round to nearest even; overflow gives infinity.
uint16_t FloatToF16(float value);

// "[a, b, c]" for messages.
std::string ShapeString(std::span<const int64_t> shape);

// One tensor's header entry; begin/end are byte offsets into the file's data section.
struct TensorInfo {
  std::string name;
  Dtype dtype = Dtype::kF32;
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;

  // Product of the shape (1 for a scalar).
  int64_t NumElements() const;
};

// One mapped .safetensors file.
class SafetensorsFile {
 public:
  // Maps `path` and checks its header: DataLoss naming the file (and tensor) for a truncated
  // file, a header that is not JSON, an unknown dtype or offsets outside the file.
  static StatusOr<std::unique_ptr<SafetensorsFile>> Open(const std::string& path);
  ~SafetensorsFile();
  SafetensorsFile(const SafetensorsFile&) = delete;
  SafetensorsFile& operator=(const SafetensorsFile&) = delete;

  // The file's path as opened.
  const std::string& path() const { return path_; }
  // All tensors by name.
  const std::map<std::string, TensorInfo>& tensors() const { return tensors_; }
  // The entry for `name`, or nullptr.
  const TensorInfo* Find(const std::string& name) const;
  // The raw little-endian bytes of a tensor of this file (valid while the file lives).
  std::span<const uint8_t> Bytes(const TensorInfo& info) const;
  // Tensor `name` as floats; NotFound naming the file and tensor when absent,
  // InvalidArgument when its shape differs from a non-empty `expected_shape` or its dtype
  // does not convert.
  StatusOr<std::vector<float>> ReadFloat(const std::string& name,
                                         std::span<const int64_t> expected_shape = {}) const;
  // Rows [row, row + rows) of tensor `name` (its first dimension) as floats; rows < 0 reads
  // the whole tensor. Errors as ReadFloat, and InvalidArgument naming the tensor for rows
  // outside it. Reading never keeps the file's pages resident: the mapped pages of what was
  // read are released (the page cache keeps them), so reading a whole checkpoint tensor by
  // tensor holds one tensor at a time, not the file.
  StatusOr<std::vector<float>> ReadFloatRows(const std::string& name, int64_t row, int64_t rows,
                                             std::span<const int64_t> expected_shape = {}) const;

 private:
  SafetensorsFile(std::string path, const uint8_t* map, size_t size)
      : path_(std::move(path)), map_(map), size_(size) {}
  Status ParseHeader();
  // Drops the mapped pages wholly inside `bytes` from the resident set.
  void Release(std::span<const uint8_t> bytes) const;

  std::string path_;
  const uint8_t* map_ = nullptr;  // whole file, read-only mapping (nullptr when empty)
  size_t size_ = 0;
  const uint8_t* data_ = nullptr;  // start of the data section
  size_t data_size_ = 0;
  std::map<std::string, TensorInfo> tensors_;
};

// The tensors of a checkpoint: one model.safetensors or the shards named by
// model.safetensors.index.json ("weight_map": {tensor: shard file}).
class SafetensorsSet {
 public:
  // Opens `dir`/model.safetensors, or else `dir`/model.safetensors.index.json; NotFound
  // naming the directory when neither exists.
  static StatusOr<std::unique_ptr<SafetensorsSet>> OpenDir(const std::string& dir);
  // Opens one .safetensors file.
  static StatusOr<std::unique_ptr<SafetensorsSet>> OpenFile(const std::string& path);
  // Opens a sharded index: every shard is mapped and every weight_map entry must be in
  // its shard (errors name the index, shard and tensor).
  static StatusOr<std::unique_ptr<SafetensorsSet>> OpenIndex(const std::string& path);

  // Where the tensors came from (the file or the index).
  const std::string& source() const { return source_; }
  // All tensor names, sorted.
  std::vector<std::string> Names() const;
  // The entry for `name`, or nullptr.
  const TensorInfo* Find(const std::string& name) const;
  // The file holding `name`, or nullptr.
  const SafetensorsFile* FileOf(const std::string& name) const;
  // Tensor `name` as floats; errors as SafetensorsFile::ReadFloat, naming `source()` when
  // the tensor is missing.
  StatusOr<std::vector<float>> ReadFloat(const std::string& name,
                                         std::span<const int64_t> expected_shape = {}) const;
  // Rows of tensor `name` (SafetensorsFile::ReadFloatRows); missing tensors as ReadFloat.
  StatusOr<std::vector<float>> ReadFloatRows(const std::string& name, int64_t row, int64_t rows,
                                             std::span<const int64_t> expected_shape = {}) const;

 private:
  explicit SafetensorsSet(std::string source) : source_(std::move(source)) {}

  std::string source_;
  std::vector<std::unique_ptr<SafetensorsFile>> files_;
  std::map<std::string, const SafetensorsFile*> owner_;  // tensor name -> file
};

// A tensor to write: float values converted to `dtype` (kBF16, kF16 or kF32).
struct TensorToWrite {
  std::string name;
  Dtype dtype = Dtype::kF32;
  std::vector<int64_t> shape;
  std::span<const float> values;  // not owned; NumElements(shape) values
};

// One tensor of a file being written: its header entry before its values.
struct TensorSpec {
  std::string name;
  Dtype dtype = Dtype::kF32;  // kBF16, kF16 or kF32
  std::vector<int64_t> shape;
};

// Writes a .safetensors file without holding its data (a Qwen3-0.6B-shaped checkpoint is
// 1.2 GB of bf16): the header comes from the specs, values arrive in file order in pieces of
// any size and go out converted through a small buffer to `path.tmp.<pid>`, which Finish
// renames into place. The file equals WriteSafetensors' for the same tensors.
class SafetensorsWriter {
 public:
  // InvalidArgument naming the tensor for a dtype that does not convert or a negative
  // dimension; Internal naming the temporary file when it cannot be created.
  static StatusOr<std::unique_ptr<SafetensorsWriter>> Create(const std::string& path,
                                                             std::vector<TensorSpec> specs);
  // Removes the temporary file unless Finish succeeded.
  ~SafetensorsWriter();
  SafetensorsWriter(const SafetensorsWriter&) = delete;
  SafetensorsWriter& operator=(const SafetensorsWriter&) = delete;

  // The next values, continuing the current tensor and then the next ones. InvalidArgument
  // for values past the last tensor; Internal for I/O.
  Status Write(std::span<const float> values);
  // InvalidArgument naming the first tensor that lacks values; Internal for I/O or the rename.
  Status Finish();

 private:
  SafetensorsWriter(std::string path, std::string tmp, std::FILE* out,
                    std::vector<TensorSpec> specs, std::vector<int64_t> counts)
      : path_(std::move(path)), tmp_(std::move(tmp)), out_(out), specs_(std::move(specs)),
        counts_(std::move(counts)) {}

  std::string path_, tmp_;
  std::FILE* out_;
  std::vector<TensorSpec> specs_;
  std::vector<int64_t> counts_;  // elements per tensor
  size_t tensor_ = 0;            // the tensor being written
  int64_t written_ = 0;          // its values written so far
  bool finished_ = false;
};

// Writes a .safetensors file atomically (a temporary name in the same directory, then
// rename): tensors packed in the given order without holes, as the format requires, the
// header padded to 8 bytes. InvalidArgument for a value count that does not match its shape
// or a dtype that does not convert; Internal for I/O.
Status WriteSafetensors(const std::string& path, const std::vector<TensorToWrite>& tensors);

// Writes `contents` to `path` atomically (temp name + rename); Internal naming the path.
Status WriteFileAtomic(const std::string& path, const std::string& contents);
// Reads a whole file; NotFound or Internal naming the path.
StatusOr<std::string> ReadFileToString(const std::string& path);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_SAFETENSORS_H_
