// float64 references of the kernels: the same math in double on the unquantized weights and
// inputs, what every kernel is checked against (relative L2 within its documented bound).
#ifndef OTPU_WORKLOADS_KERNELS_REFERENCE_H_
#define OTPU_WORKLOADS_KERNELS_REFERENCE_H_

#include <vector>

#include "workloads/kernels/attn.h"
#include "workloads/kernels/layer.h"
#include "workloads/kernels/mlp.h"

namespace otpu::kernels {

// ||got - ref|| / ||ref||; 0 when both are zero, +inf when only ref is.
double RelL2(const std::vector<float>& got, const std::vector<double>& ref);
// ||got - ref|| / ||ref - base||: the error of a residual block relative to its contribution.
double RelL2Delta(const std::vector<float>& got, const std::vector<double>& ref,
                  const std::vector<float>& base);

// Row-wise x * (mean(x^2) + eps)^-1/2 * g over `rows` rows of n.
std::vector<double> RefRmsNorm(const std::vector<double>& x, int rows, int n,
                               const std::vector<float>& g, double eps);

// y = x + W_down (silu(W_gate n) * (W_up n)), n = rmsnorm(x) g, for M x H rows of x.
std::vector<double> RefMlp(const MlpShape& shape, const MlpWeights& w, const std::vector<float>& x);

// o [hq x hd] = softmax(q K^T / sqrt(hd)) V per q head; k, v are [hkv][t][hd].
std::vector<double> RefAttn(int hq, int hkv, int hd, int t, const std::vector<double>& q,
                            const std::vector<double>& k, const std::vector<double>& v);

// The K and V the reference layer attends over: [hkv][t][hd] each, growing by one position
// per RefLayerStep.
struct RefKvCache {
  int hkv = 0, hd = 0, t = 0;
  std::vector<std::vector<double>> k, v;  // per head, t * hd

  RefKvCache(int heads, int head_dim) : hkv(heads), hd(head_dim), k(heads), v(heads) {}
  // Adds positions from [hkv][count][hd] float arrays (a host-filled prefix).
  void AppendPrefix(const std::vector<float>& kk, const std::vector<float>& vv, int count);
  // Flattened [hkv][t][hd].
  std::vector<double> Flat(const std::vector<std::vector<double>>& per_head) const;
};

// One decode step of the attention block at position cache->t; appends that position's
// (normed, rotated) k and v to `cache` and returns y.
std::vector<double> RefLayerStep(const LayerShape& shape, const LayerWeights& w,
                                 const std::vector<float>& x, RefKvCache* cache);

}  // namespace otpu::kernels

#endif  // OTPU_WORKLOADS_KERNELS_REFERENCE_H_
