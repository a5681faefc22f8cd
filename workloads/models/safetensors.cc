#include "workloads/models/safetensors.h"

#include <fcntl.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/strings.h"
#include "base/json.h"

namespace otpu::models {
namespace {

struct DtypeEntry {
  Dtype dtype;
  const char* name;
  size_t size;
};
constexpr DtypeEntry kDtypes[] = {
    {Dtype::kBool, "BOOL", 1}, {Dtype::kU8, "U8", 1},          {Dtype::kI8, "I8", 1},
    {Dtype::kI16, "I16", 2},   {Dtype::kU16, "U16", 2},        {Dtype::kF16, "F16", 2},
    {Dtype::kBF16, "BF16", 2}, {Dtype::kI32, "I32", 4},        {Dtype::kU32, "U32", 4},
    {Dtype::kF32, "F32", 4},   {Dtype::kF64, "F64", 8},        {Dtype::kI64, "I64", 8},
    {Dtype::kU64, "U64", 8},   {Dtype::kF8E4M3, "F8_E4M3", 1}, {Dtype::kF8E5M2, "F8_E5M2", 1},
};

bool Converts(Dtype d) { return d == Dtype::kBF16 || d == Dtype::kF16 || d == Dtype::kF32; }

// Header size sanity cap: real headers are tens of kilobytes.
constexpr uint64_t kMaxHeaderBytes = uint64_t(100) << 20;

std::string Errno() { return std::strerror(errno); }

}  // namespace

const char* DtypeName(Dtype dtype) {
  for (const auto& e : kDtypes) {
    if (e.dtype == dtype) return e.name;
  }
  return "?";
}

size_t DtypeSize(Dtype dtype) {
  for (const auto& e : kDtypes) {
    if (e.dtype == dtype) return e.size;
  }
  return 0;
}

bool ParseDtype(const std::string& name, Dtype* dtype) {
  for (const auto& e : kDtypes) {
    if (name == e.name) {
      *dtype = e.dtype;
      return true;
    }
  }
  return false;
}

float F16ToFloat(uint16_t bits) {
  const uint32_t sign = uint32_t(bits >> 15) << 31;
  const uint32_t exp = (bits >> 10) & 0x1F, man = bits & 0x3FF;
  if (exp == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | (man << 13));
  if (exp != 0) return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
  const float mag = std::ldexp(float(man), -24);  // subnormal or zero: exact in float
  return sign ? -mag : mag;
}

uint16_t FloatToF16(float value) {
  const uint32_t u = std::bit_cast<uint32_t>(value);
  const uint16_t sign = uint16_t((u >> 16) & 0x8000);
  if (std::isnan(value)) return sign | 0x7E00;
  const float a = std::fabs(value);
  if (a >= 65520.0f) return sign | 0x7C00;  // rounds past the largest half (65504)
  if (a < std::ldexp(1.0f, -14)) {
    // Subnormal: units of 2^-24, nearbyint rounds half to even in the default mode.
    return sign | uint16_t(std::nearbyint(std::ldexp(a, 24)));
  }
  const uint32_t au = std::bit_cast<uint32_t>(a);
  uint32_t h = ((au >> 23) - 112) << 10 | ((au >> 13) & 0x3FF);
  const uint32_t rest = au & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;  // may carry into the exponent
  return sign | uint16_t(h);
}

std::string ShapeString(std::span<const int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

int64_t TensorInfo::NumElements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// ---- SafetensorsFile ----

StatusOr<std::unique_ptr<SafetensorsFile>> SafetensorsFile::Open(const std::string& path) {
  // O_NONBLOCK: a FIFO named model.safetensors must not block the open.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return NotFound(path + ": no such file");
    return Internal(path + ": cannot open: " + Errno());
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const std::string e = Errno();
    ::close(fd);
    return Internal(path + ": cannot stat: " + e);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return InvalidArgument(path + ": not a regular file");
  }
  const size_t size = size_t(st.st_size);
  const uint8_t* map = nullptr;
  if (size > 0) {
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const std::string e = Errno();
      ::close(fd);
      return Internal(path + ": cannot map: " + e);
    }
    map = static_cast<const uint8_t*>(p);
  }
  ::close(fd);  // the mapping keeps the file alive
  std::unique_ptr<SafetensorsFile> file(new SafetensorsFile(path, map, size));
  RETURN_IF_ERROR(file->ParseHeader());
  return file;
}

SafetensorsFile::~SafetensorsFile() {
  if (map_ != nullptr) ::munmap(const_cast<uint8_t*>(map_), size_);
}

Status SafetensorsFile::ParseHeader() {
  if (size_ < 8) {
    return DataLoss(StrFormat("%s: truncated: %zu bytes, shorter than the 8-byte header length",
                              path_.c_str(), size_));
  }
  uint64_t header_len = 0;
  std::memcpy(&header_len, map_, 8);  // little-endian on every host we build for
  if (header_len > size_ - 8) {
    return DataLoss(StrFormat("%s: truncated: header of %llu bytes but the file has %zu",
                              path_.c_str(), (unsigned long long)header_len, size_));
  }
  if (header_len > kMaxHeaderBytes) {
    return DataLoss(StrFormat("%s: header length %llu is implausible (over 100 MiB)",
                              path_.c_str(), (unsigned long long)header_len));
  }
  data_ = map_ + 8 + header_len;
  data_size_ = size_ - 8 - header_len;

  rapidjson::Document doc;
  RETURN_IF_ERROR(ParseJson(std::string_view(reinterpret_cast<const char*>(map_ + 8), header_len),
                            path_ + ": header", &doc));
  if (!doc.IsObject()) return DataLoss(path_ + ": header is not a JSON object");
  for (auto it = doc.MemberBegin(); it != doc.MemberEnd(); ++it) {
    const std::string name(it->name.GetString(), it->name.GetStringLength());
    if (name == "__metadata__") continue;
    const std::string where = path_ + ": tensor " + name;
    const auto& v = it->value;
    if (!v.IsObject()) return DataLoss(where + ": entry is not an object");
    TensorInfo info;
    info.name = name;
    if (!v.HasMember("dtype") || !v["dtype"].IsString()) return DataLoss(where + ": no dtype");
    if (!ParseDtype(v["dtype"].GetString(), &info.dtype)) {
      return DataLoss(where + ": unknown dtype " + v["dtype"].GetString());
    }
    if (!v.HasMember("shape") || !v["shape"].IsArray()) return DataLoss(where + ": no shape");
    for (const auto& d : v["shape"].GetArray()) {
      if (!d.IsInt64() || d.GetInt64() < 0) return DataLoss(where + ": bad shape entry");
      info.shape.push_back(d.GetInt64());
    }
    if (!v.HasMember("data_offsets") || !v["data_offsets"].IsArray() ||
        v["data_offsets"].Size() != 2 || !v["data_offsets"][0].IsUint64() ||
        !v["data_offsets"][1].IsUint64()) {
      return DataLoss(where + ": data_offsets is not [begin, end]");
    }
    info.begin = v["data_offsets"][0].GetUint64();
    info.end = v["data_offsets"][1].GetUint64();
    if (info.begin > info.end || info.end > data_size_) {
      return DataLoss(StrFormat(
          "%s: data_offsets [%llu, %llu] outside the %zu data bytes "
          "(truncated file?)",
          where.c_str(), (unsigned long long)info.begin, (unsigned long long)info.end, data_size_));
    }
    // Overflow-safe: bytes the shape needs, against what the offsets hold.
    const uint64_t elem = DtypeSize(info.dtype);
    uint64_t need = elem;
    for (int64_t d : info.shape) {
      if (d != 0 && need > data_size_ / uint64_t(d) + 1) {
        need = UINT64_MAX;
        break;
      }
      need *= uint64_t(d);
    }
    if (need != info.end - info.begin) {
      return DataLoss(StrFormat("%s: shape %s of %s needs %llu bytes but data_offsets span %llu",
                                where.c_str(), ShapeString(info.shape).c_str(),
                                DtypeName(info.dtype), (unsigned long long)need,
                                (unsigned long long)(info.end - info.begin)));
    }
    tensors_.emplace(name, std::move(info));
  }
  return OkStatus();
}

const TensorInfo* SafetensorsFile::Find(const std::string& name) const {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

std::span<const uint8_t> SafetensorsFile::Bytes(const TensorInfo& info) const {
  return {data_ + info.begin, size_t(info.end - info.begin)};
}

StatusOr<std::vector<float>> SafetensorsFile::ReadFloat(
    const std::string& name, std::span<const int64_t> expected_shape) const {
  return ReadFloatRows(name, 0, -1, expected_shape);
}

StatusOr<std::vector<float>> SafetensorsFile::ReadFloatRows(
    const std::string& name, int64_t row, int64_t rows,
    std::span<const int64_t> expected_shape) const {
  const TensorInfo* info = Find(name);
  if (info == nullptr) return NotFound(path_ + ": no tensor " + name);
  const std::string where = path_ + ": tensor " + name;
  if (!expected_shape.empty() && !std::equal(expected_shape.begin(), expected_shape.end(),
                                             info->shape.begin(), info->shape.end())) {
    return InvalidArgument(where + ": shape " + ShapeString(info->shape) + ", expected " +
                           ShapeString(expected_shape));
  }
  if (!Converts(info->dtype)) {
    return InvalidArgument(where + ": dtype " + DtypeName(info->dtype) +
                           " does not convert to float (BF16, F16, F32 do)");
  }
  // Elements [first, first + count): the whole tensor, or rows of its first dimension.
  const int64_t total = info->NumElements();
  int64_t first = 0, count = total;
  if (rows >= 0) {
    const int64_t dim0 = info->shape.empty() ? 1 : info->shape[0];
    if (row < 0 || row > dim0 || rows > dim0 - row) {
      return InvalidArgument(StrFormat("%s: rows [%lld, %lld) outside its %lld rows",
                                       where.c_str(), (long long)row, (long long)(row + rows),
                                       (long long)dim0));
    }
    const int64_t per_row = dim0 == 0 ? 0 : total / dim0;
    first = row * per_row;
    count = rows * per_row;
  }
  const size_t esize = DtypeSize(info->dtype);
  const auto bytes = Bytes(*info).subspan(size_t(first) * esize, size_t(count) * esize);
  std::vector<float> out(static_cast<size_t>(count));
  if (info->dtype == Dtype::kF32) {
    std::memcpy(out.data(), bytes.data(), bytes.size());
  } else {
    for (size_t i = 0; i < out.size(); ++i) {
      uint16_t bits;
      std::memcpy(&bits, bytes.data() + 2 * i, 2);
      out[i] = info->dtype == Dtype::kBF16 ? Bf16ToFloat(bits) : F16ToFloat(bits);
    }
  }
  Release(bytes);
  // A NaN or infinity would poison every later sum silently.
  for (size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i])) {
      return DataLoss(StrFormat("%s: element %lld is %s: weights must be finite", where.c_str(),
                                (long long)(first + int64_t(i)),
                                std::isnan(out[i]) ? "NaN" : "infinite"));
    }
  }
  return out;
}

void SafetensorsFile::Release(std::span<const uint8_t> bytes) const {
  // The pages wholly inside `bytes` leave this process's resident set (the page cache keeps
  // them); a later read maps them in again. Partial pages at the ends may belong to a
  // neighbouring tensor being read and stay.
  const uintptr_t page = uintptr_t(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (uintptr_t(bytes.data()) + page - 1) / page * page;
  const uintptr_t end = (uintptr_t(bytes.data()) + bytes.size()) / page * page;
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

// ---- Files ----

Status WriteFileAtomic(const std::string& path, const std::string& contents) {
  const std::string tmp = StrFormat("%s.tmp.%d", path.c_str(), int(::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Internal(tmp + ": cannot create: " + Errno());
    out.write(contents.data(), std::streamsize(contents.size()));
    out.close();
    if (!out) {
      std::remove(tmp.c_str());
      return Internal(tmp + ": write failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string e = Errno();
    std::remove(tmp.c_str());
    return Internal(path + ": cannot rename into place: " + e);
  }
  return OkStatus();
}

StatusOr<std::string> ReadFileToString(const std::string& path) {
  // Regular files only: a FIFO would block, /dev/zero never end.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return NotFound(path + ": no such file");
    return Internal(path + ": cannot open: " + Errno());
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return InvalidArgument(path + ": not a regular file");
  }
  std::string out;
  out.reserve(size_t(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string e = Errno();
      ::close(fd);
      return Internal(path + ": read failed: " + e);
    }
    if (n == 0) break;
    out.append(buf, size_t(n));
  }
  ::close(fd);
  return out;
}

StatusOr<std::unique_ptr<SafetensorsWriter>> SafetensorsWriter::Create(
    const std::string& path, std::vector<TensorSpec> specs) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  w.StartObject();
  w.Key("__metadata__");
  w.StartObject();
  w.Key("format");
  w.String("pt");
  w.EndObject();
  std::vector<int64_t> counts;
  uint64_t offset = 0;
  for (const TensorSpec& t : specs) {
    if (!Converts(t.dtype)) {
      return InvalidArgument(path + ": tensor " + t.name + ": cannot write dtype " +
                             DtypeName(t.dtype));
    }
    int64_t n = 1;
    for (int64_t d : t.shape) {
      if (d < 0) {
        return InvalidArgument(path + ": tensor " + t.name + ": shape " +
                               ShapeString(t.shape) + " has a negative dimension");
      }
      n *= d;
    }
    counts.push_back(n);
    const uint64_t end = offset + uint64_t(n) * DtypeSize(t.dtype);
    w.Key(t.name.c_str());
    w.StartObject();
    w.Key("dtype");
    w.String(DtypeName(t.dtype));
    w.Key("shape");
    w.StartArray();
    for (int64_t d : t.shape) w.Int64(d);
    w.EndArray();
    w.Key("data_offsets");
    w.StartArray();
    w.Uint64(offset);
    w.Uint64(end);
    w.EndArray();
    w.EndObject();
    offset = end;
  }
  w.EndObject();
  std::string header = sb.GetString();
  header.resize((header.size() + 7) / 8 * 8, ' ');  // the format pads headers with spaces
  const uint64_t len = header.size();
  const std::string tmp = StrFormat("%s.tmp.%d", path.c_str(), int(::getpid()));
  std::FILE* out = std::fopen(tmp.c_str(), "wb");
  if (out == nullptr) return Internal(tmp + ": cannot create: " + Errno());
  std::unique_ptr<SafetensorsWriter> writer(
      new SafetensorsWriter(path, tmp, out, std::move(specs), std::move(counts)));
  if (std::fwrite(&len, 8, 1, out) != 1 || std::fwrite(header.data(), 1, len, out) != len) {
    return Internal(tmp + ": write failed: " + Errno());
  }
  return writer;
}

SafetensorsWriter::~SafetensorsWriter() {
  if (out_ != nullptr) std::fclose(out_);
  if (!finished_) std::remove(tmp_.c_str());
}

Status SafetensorsWriter::Write(std::span<const float> values) {
  constexpr size_t kBlock = 1 << 16;
  uint16_t half[kBlock];
  while (!values.empty()) {
    while (tensor_ < specs_.size() && written_ == counts_[tensor_]) {
      ++tensor_;
      written_ = 0;
    }
    if (tensor_ == specs_.size()) {
      return InvalidArgument(StrFormat("%s: %zu values past the last tensor", path_.c_str(),
                                       values.size()));
    }
    const Dtype dtype = specs_[tensor_].dtype;
    const size_t n = std::min<size_t>(
        {values.size(), size_t(counts_[tensor_] - written_), dtype == Dtype::kF32 ? values.size()
                                                                                  : kBlock});
    size_t put = 0;
    if (dtype == Dtype::kF32) {
      put = std::fwrite(values.data(), 4, n, out_);
    } else {
      for (size_t i = 0; i < n; ++i) {
        half[i] = dtype == Dtype::kBF16 ? FloatToBf16(values[i]) : FloatToF16(values[i]);
      }
      put = std::fwrite(half, 2, n, out_);
    }
    if (put != n) return Internal(tmp_ + ": write failed: " + Errno());
    written_ += int64_t(n);
    values = values.subspan(n);
  }
  return OkStatus();
}

Status SafetensorsWriter::Finish() {
  while (tensor_ < specs_.size() && written_ == counts_[tensor_]) {
    ++tensor_;
    written_ = 0;
  }
  if (tensor_ < specs_.size()) {
    return InvalidArgument(StrFormat("%s: tensor %s has %lld of its %lld values", path_.c_str(),
                                     specs_[tensor_].name.c_str(), (long long)written_,
                                     (long long)counts_[tensor_]));
  }
  std::FILE* out = out_;
  out_ = nullptr;
  if (std::fclose(out) != 0) return Internal(tmp_ + ": write failed: " + Errno());
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    return Internal(path_ + ": cannot rename into place: " + Errno());
  }
  finished_ = true;
  return OkStatus();
}

Status WriteSafetensors(const std::string& path, const std::vector<TensorToWrite>& tensors) {
  std::vector<TensorSpec> specs;
  for (const auto& t : tensors) {
    int64_t n = 1;
    for (int64_t d : t.shape) n *= d;
    if (n != int64_t(t.values.size())) {
      return InvalidArgument(StrFormat("%s: tensor %s: %zu values for shape %s", path.c_str(),
                                       t.name.c_str(), t.values.size(),
                                       ShapeString(t.shape).c_str()));
    }
    specs.push_back({t.name, t.dtype, t.shape});
  }
  ASSIGN_OR_RETURN(std::unique_ptr<SafetensorsWriter> writer,
                   SafetensorsWriter::Create(path, std::move(specs)));
  for (const auto& t : tensors) RETURN_IF_ERROR(writer->Write(t.values));
  return writer->Finish();
}

}  // namespace otpu::models
