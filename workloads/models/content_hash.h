// Content hashes for the image cache's entry names: a streaming 128-bit hash of bytes, and a
// fingerprint of the host quantizer so that entries made by an older quantizer never match.
#ifndef OTPU_WORKLOADS_MODELS_CONTENT_HASH_H_
#define OTPU_WORKLOADS_MODELS_CONTENT_HASH_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "workloads/isa/defs.h"

namespace otpu::models {

// A 128-bit non-cryptographic hash (four xxHash64-style lanes over 32-byte stripes, folded
// with the murmur3 finalizer). Fast enough to key a checkpoint's tensors (several GB/s);
// collisions between different tensors are as unlikely as any 128-bit random match.
class ContentHasher {
 public:
  ContentHasher();
  // Adds `len` bytes; the result depends only on the concatenation of everything added.
  void Update(const void* data, size_t len);
  // The hash of everything added so far.
  std::array<uint64_t, 2> Digest() const;
  // Digest() as 32 lowercase hex digits.
  std::string Hex() const;

 private:
  void Stripe(const uint8_t* p);

  uint64_t lanes_[4];
  uint8_t buf_[32];
  size_t buffered_ = 0;
  uint64_t total_ = 0;
};

// Hash of what kernels::Quantize makes of a fixed probe matrix in format `wf`: it changes
// whenever the quantization rule does, and so invalidates the cache's old entries.
uint64_t QuantizerFingerprint(isa::WFormat wf);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_CONTENT_HASH_H_
