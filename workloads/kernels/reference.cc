#include "workloads/kernels/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/status.h"

namespace otpu::kernels {
namespace {

// out[r] = sum_e w[r][e] x[e] for the row-major w [rows x n].
std::vector<double> MatVec(const std::vector<float>& w, int rows, int n, const double* x) {
  std::vector<double> out(rows);
  for (int r = 0; r < rows; ++r) {
    const float* row = w.data() + size_t(r) * n;
    double acc = 0;
    for (int e = 0; e < n; ++e) acc += double(row[e]) * x[e];
    out[r] = acc;
  }
  return out;
}

// Rotate-half RoPE of one head at `pos`, in place.
void Rope(double* x, int hd, int pos, double theta) {
  const int half = hd / 2;
  for (int i = 0; i < half; ++i) {
    double angle = double(pos) * std::pow(theta, -2.0 * i / hd);
    double c = std::cos(angle), s = std::sin(angle);
    double x1 = x[i], x2 = x[i + half];
    x[i] = x1 * c - x2 * s;
    x[i + half] = x2 * c + x1 * s;
  }
}

}  // namespace

double RelL2(const std::vector<float>& got, const std::vector<double>& ref) {
  OTPU_CHECK(got.size() == ref.size());
  double num = 0, den = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    num += (double(got[i]) - ref[i]) * (double(got[i]) - ref[i]);
    den += ref[i] * ref[i];
  }
  if (den == 0) return num == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::sqrt(num / den);
}

double RelL2Delta(const std::vector<float>& got, const std::vector<double>& ref,
                  const std::vector<float>& base) {
  OTPU_CHECK(got.size() == ref.size() && base.size() == ref.size());
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double err = double(got[i]) - ref[i], delta = ref[i] - double(base[i]);
    num += err * err;
    den += delta * delta;
  }
  if (den == 0) return num == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::sqrt(num / den);
}

std::vector<double> RefRmsNorm(const std::vector<double>& x, int rows, int n,
                               const std::vector<float>& g, double eps) {
  std::vector<double> out(x.size());
  for (int r = 0; r < rows; ++r) {
    const double* row = x.data() + size_t(r) * n;
    double ss = 0;
    for (int e = 0; e < n; ++e) ss += row[e] * row[e];
    double inv = 1.0 / std::sqrt(ss / n + eps);
    for (int e = 0; e < n; ++e) out[size_t(r) * n + e] = row[e] * inv * double(g[e]);
  }
  return out;
}

std::vector<double> RefMlp(const MlpShape& s, const MlpWeights& w, const std::vector<float>& x) {
  std::vector<double> xd(x.begin(), x.end());
  std::vector<double> n = RefRmsNorm(xd, s.m, s.h, w.g, kRmsEps);
  std::vector<double> y(xd);
  for (int r = 0; r < s.m; ++r) {
    const double* nr = n.data() + size_t(r) * s.h;
    std::vector<double> gate = MatVec(w.w_gate, s.f, s.h, nr);
    std::vector<double> up = MatVec(w.w_up, s.f, s.h, nr);
    for (int i = 0; i < s.f; ++i) gate[i] = gate[i] / (1.0 + std::exp(-gate[i])) * up[i];
    std::vector<double> down = MatVec(w.w_down, s.h, s.f, gate.data());
    for (int e = 0; e < s.h; ++e) y[size_t(r) * s.h + e] += down[e];
  }
  return y;
}

std::vector<double> RefAttn(int hq, int hkv, int hd, int t, const std::vector<double>& q,
                            const std::vector<double>& k, const std::vector<double>& v) {
  const int group = hq / hkv;
  const double scale = 1.0 / std::sqrt(double(hd));
  std::vector<double> o(size_t(hq) * hd, 0.0), s(t);
  for (int h = 0; h < hq; ++h) {
    const int j = h / group;
    const double* qh = q.data() + size_t(h) * hd;
    double mx = -std::numeric_limits<double>::infinity();
    for (int p = 0; p < t; ++p) {
      const double* kp = k.data() + (size_t(j) * t + p) * hd;
      double dot = 0;
      for (int e = 0; e < hd; ++e) dot += qh[e] * kp[e];
      s[p] = dot * scale;
      mx = std::max(mx, s[p]);
    }
    double sum = 0;
    for (int p = 0; p < t; ++p) sum += (s[p] = std::exp(s[p] - mx));
    double* oh = o.data() + size_t(h) * hd;
    for (int p = 0; p < t; ++p) {
      const double* vp = v.data() + (size_t(j) * t + p) * hd;
      for (int e = 0; e < hd; ++e) oh[e] += s[p] / sum * vp[e];
    }
  }
  return o;
}

void RefKvCache::AppendPrefix(const std::vector<float>& kk, const std::vector<float>& vv,
                              int count) {
  OTPU_CHECK(kk.size() == size_t(hkv) * count * hd && vv.size() == kk.size());
  for (int j = 0; j < hkv; ++j) {
    const size_t from = size_t(j) * count * hd, to = from + size_t(count) * hd;
    k[j].insert(k[j].end(), kk.begin() + from, kk.begin() + to);
    v[j].insert(v[j].end(), vv.begin() + from, vv.begin() + to);
  }
  t += count;
}

std::vector<double> RefKvCache::Flat(const std::vector<std::vector<double>>& per_head) const {
  std::vector<double> out;
  out.reserve(size_t(hkv) * t * hd);
  for (const auto& h : per_head) out.insert(out.end(), h.begin(), h.end());
  return out;
}

std::vector<double> RefLayerStep(const LayerShape& s, const LayerWeights& w,
                                 const std::vector<float>& x, RefKvCache* cache) {
  const int pos = cache->t, hd = s.hd;
  std::vector<double> xd(x.begin(), x.end());
  std::vector<double> n = RefRmsNorm(xd, 1, s.h, w.g_attn, kRmsEps);
  std::vector<double> q = MatVec(w.wq, s.hq * hd, s.h, n.data());
  std::vector<double> k = MatVec(w.wk, s.hkv * hd, s.h, n.data());
  std::vector<double> v = MatVec(w.wv, s.hkv * hd, s.h, n.data());
  q = RefRmsNorm(q, s.hq, hd, w.g_q, kRmsEps);
  k = RefRmsNorm(k, s.hkv, hd, w.g_k, kRmsEps);
  for (int h = 0; h < s.hq; ++h) Rope(q.data() + size_t(h) * hd, hd, pos, s.rope_theta);
  for (int j = 0; j < s.hkv; ++j) {
    Rope(k.data() + size_t(j) * hd, hd, pos, s.rope_theta);
    cache->k[j].insert(cache->k[j].end(), k.begin() + size_t(j) * hd,
                       k.begin() + size_t(j + 1) * hd);
    cache->v[j].insert(cache->v[j].end(), v.begin() + size_t(j) * hd,
                       v.begin() + size_t(j + 1) * hd);
  }
  cache->t += 1;
  std::vector<double> o =
      RefAttn(s.hq, s.hkv, hd, cache->t, q, cache->Flat(cache->k), cache->Flat(cache->v));
  std::vector<double> proj = MatVec(w.wo, s.h, s.hq * hd, o.data());
  for (int r = 0; r < s.h; ++r) xd[r] += proj[r];
  return xd;
}

}  // namespace otpu::kernels
