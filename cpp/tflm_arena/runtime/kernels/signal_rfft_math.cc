// KISS FFT v130's 16-bit fixed-point arithmetic, as TFLM's SignalRfft runs
// it (see signal_rfft.h for the facts). Every sum that kiss stores into an
// int16 is truncated the same way here (Wrap); every product is formed in
// int32 as kiss's smul, with wrapping instead of signed overflow.
#include <cmath>

#include "tflm_arena/runtime/kernels/signal_rfft.h"

namespace tflm_arena {
namespace runtime {
namespace {

using Cpx = SignalComplex16;

// int -> int16 as a C assignment on a two's-complement target.
inline int16_t Wrap(int32_t x) { return static_cast<int16_t>(static_cast<uint16_t>(x)); }
// Wrapping int32 arithmetic (kiss's int32 sums, without undefined overflow).
inline int32_t Add32(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t Sub32(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
inline int32_t Smul(int32_t a, int32_t b) { return a * b; }  // |a|, |b| <= 2^15
// sround: (x + 2^14) >> 15, stored as int16.
inline int16_t Sround(int32_t x) { return Wrap(Add32(x, 1 << 14) >> 15); }
inline int16_t SMul(int16_t a, int16_t b) { return Sround(Smul(a, b)); }

inline Cpx Mul(Cpx a, Cpx b) {
  return Cpx{Sround(Sub32(Smul(a.r, b.r), Smul(a.i, b.i))),
             Sround(Add32(Smul(a.r, b.i), Smul(a.i, b.r)))};
}
inline void FixDiv(Cpx* c, int k) {
  const int32_t d = 32767 / k;
  c->r = Sround(Smul(c->r, d));
  c->i = Sround(Smul(c->i, d));
}
inline Cpx AddC(Cpx a, Cpx b) { return Cpx{Wrap(a.r + b.r), Wrap(a.i + b.i)}; }
inline Cpx SubC(Cpx a, Cpx b) { return Cpx{Wrap(a.r - b.r), Wrap(a.i - b.i)}; }

void Butterfly2(Cpx* out, size_t fstride, const Cpx* tw, int32_t m) {
  Cpx* out2 = out + m;
  for (int32_t k = 0; k < m; ++k) {
    FixDiv(out, 2);
    FixDiv(out2, 2);
    const Cpx t = Mul(*out2, *tw);
    tw += fstride;
    *out2 = SubC(*out, t);
    *out = AddC(*out, t);
    ++out2;
    ++out;
  }
}

void Butterfly3(Cpx* out, size_t fstride, const Cpx* tw, int32_t m) {
  const size_t m2 = 2 * static_cast<size_t>(m);
  const Cpx epi3 = tw[fstride * static_cast<size_t>(m)];
  const Cpx* tw1 = tw;
  const Cpx* tw2 = tw;
  for (int32_t k = 0; k < m; ++k) {
    FixDiv(out, 3);
    FixDiv(out + m, 3);
    FixDiv(out + m2, 3);
    const Cpx s1 = Mul(out[m], *tw1);
    const Cpx s2 = Mul(out[m2], *tw2);
    const Cpx s3 = AddC(s1, s2);
    Cpx s0 = SubC(s1, s2);
    tw1 += fstride;
    tw2 += fstride * 2;
    out[m].r = Wrap(out->r - (s3.r >> 1));
    out[m].i = Wrap(out->i - (s3.i >> 1));
    s0.r = SMul(s0.r, epi3.i);
    s0.i = SMul(s0.i, epi3.i);
    *out = AddC(*out, s3);
    out[m2].r = Wrap(out[m].r + s0.i);
    out[m2].i = Wrap(out[m].i - s0.r);
    out[m].r = Wrap(out[m].r - s0.i);
    out[m].i = Wrap(out[m].i + s0.r);
    ++out;
  }
}

void Butterfly4(Cpx* out, size_t fstride, const Cpx* tw, int32_t m) {
  const size_t m2 = 2 * static_cast<size_t>(m);
  const size_t m3 = 3 * static_cast<size_t>(m);
  const Cpx* tw1 = tw;
  const Cpx* tw2 = tw;
  const Cpx* tw3 = tw;
  for (int32_t k = 0; k < m; ++k) {
    FixDiv(out, 4);
    FixDiv(out + m, 4);
    FixDiv(out + m2, 4);
    FixDiv(out + m3, 4);
    const Cpx s0 = Mul(out[m], *tw1);
    const Cpx s1 = Mul(out[m2], *tw2);
    const Cpx s2 = Mul(out[m3], *tw3);
    const Cpx s5 = SubC(*out, s1);
    *out = AddC(*out, s1);
    const Cpx s3 = AddC(s0, s2);
    const Cpx s4 = SubC(s0, s2);
    out[m2] = SubC(*out, s3);
    tw1 += fstride;
    tw2 += fstride * 2;
    tw3 += fstride * 3;
    *out = AddC(*out, s3);
    // Forward transform (kiss's st->inverse == 0).
    out[m].r = Wrap(s5.r + s4.i);
    out[m].i = Wrap(s5.i - s4.r);
    out[m3].r = Wrap(s5.r - s4.i);
    out[m3].i = Wrap(s5.i + s4.r);
    ++out;
  }
}

void Butterfly5(Cpx* out, size_t fstride, const Cpx* tw, int32_t m) {
  const Cpx ya = tw[fstride * static_cast<size_t>(m)];
  const Cpx yb = tw[fstride * 2 * static_cast<size_t>(m)];
  Cpx* o0 = out;
  Cpx* o1 = out + m;
  Cpx* o2 = out + 2 * static_cast<size_t>(m);
  Cpx* o3 = out + 3 * static_cast<size_t>(m);
  Cpx* o4 = out + 4 * static_cast<size_t>(m);
  for (int32_t u = 0; u < m; ++u) {
    FixDiv(o0, 5);
    FixDiv(o1, 5);
    FixDiv(o2, 5);
    FixDiv(o3, 5);
    FixDiv(o4, 5);
    const size_t uu = static_cast<size_t>(u) * fstride;
    const Cpx s0 = *o0;
    const Cpx s1 = Mul(*o1, tw[uu]);
    const Cpx s2 = Mul(*o2, tw[2 * uu]);
    const Cpx s3 = Mul(*o3, tw[3 * uu]);
    const Cpx s4 = Mul(*o4, tw[4 * uu]);
    const Cpx s7 = AddC(s1, s4);
    const Cpx s10 = SubC(s1, s4);
    const Cpx s8 = AddC(s2, s3);
    const Cpx s9 = SubC(s2, s3);
    o0->r = Wrap(o0->r + (s7.r + s8.r));
    o0->i = Wrap(o0->i + (s7.i + s8.i));
    const Cpx s5{Wrap(s0.r + SMul(s7.r, ya.r) + SMul(s8.r, yb.r)),
                 Wrap(s0.i + SMul(s7.i, ya.r) + SMul(s8.i, yb.r))};
    const Cpx s6{Wrap(SMul(s10.i, ya.i) + SMul(s9.i, yb.i)),
                 Wrap(-SMul(s10.r, ya.i) - SMul(s9.r, yb.i))};
    *o1 = SubC(s5, s6);
    *o4 = AddC(s5, s6);
    const Cpx s11{Wrap(s0.r + SMul(s7.r, yb.r) + SMul(s8.r, ya.r)),
                  Wrap(s0.i + SMul(s7.i, yb.r) + SMul(s8.i, ya.r))};
    const Cpx s12{Wrap(-SMul(s10.i, yb.i) + SMul(s9.i, ya.i)),
                  Wrap(SMul(s10.r, yb.i) - SMul(s9.r, ya.i))};
    *o2 = AddC(s11, s12);
    *o3 = SubC(s11, s12);
    ++o0, ++o1, ++o2, ++o3, ++o4;
  }
}

// kiss's kf_work (in_stride 1): out[0, p*m) from `in` read every
// `fstride` elements.
void Work(Cpx* out, const Cpx* in, size_t fstride, const int32_t* factors, const Cpx* tw) {
  const int32_t p = factors[0];
  const int32_t m = factors[1];
  Cpx* const begin = out;
  const Cpx* const end = out + static_cast<size_t>(p) * static_cast<size_t>(m);
  if (m == 1) {
    for (; out != end; ++out, in += fstride) *out = *in;
  } else {
    for (; out != end; out += m, in += fstride) {
      Work(out, in, fstride * static_cast<size_t>(p), factors + 2, tw);
    }
  }
  switch (p) {
    case 2:
      Butterfly2(begin, fstride, tw, m);
      break;
    case 3:
      Butterfly3(begin, fstride, tw, m);
      break;
    case 4:
      Butterfly4(begin, fstride, tw, m);
      break;
    default:
      Butterfly5(begin, fstride, tw, m);
      break;  // SignalRfftFactor admits 2..5 only
  }
}

inline int16_t Cosine(double phase) {
  return static_cast<int16_t>(std::floor(.5 + 32767 * std::cos(phase)));
}
inline int16_t Sine(double phase) {
  return static_cast<int16_t>(std::floor(.5 + 32767 * std::sin(phase)));
}

}  // namespace

Status SignalRfftFactor(const char* op, int32_t fft_length, int32_t* factors) {
  if (fft_length < 4 || fft_length > kSignalRfftMaxLength || (fft_length & 1) != 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: fft_length %d must be even and in [4, %d] (TFLM's real FFT needs "
                         "an even length)",
                         op, static_cast<int>(fft_length), static_cast<int>(kSignalRfftMaxLength));
  }
  // kiss's kf_factor on n = fft_length / 2.
  int32_t n = fft_length / 2;
  const auto floor_sqrt = static_cast<int32_t>(std::floor(std::sqrt(static_cast<double>(n))));
  int32_t p = 4;
  size_t used = 0;
  do {
    while (n % p != 0) {
      p = p == 4 ? 2 : p == 2 ? 3 : p + 2;
      if (p > floor_sqrt) p = n;
    }
    n /= p;
    if (p > 5 || used + 2 > kSignalRfftMaxFactors) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: fft_length %d: half of it has the factor %d; TFLM's KISS FFT "
                           "handles radix 2, 3, 4 and 5 only (its generic radix needs a heap "
                           "buffer, which TFLM's build leaves null)",
                           op, static_cast<int>(fft_length), static_cast<int>(p));
    }
    factors[used++] = p;
    factors[used++] = n;
  } while (n > 1);
  return Status::Ok();
}

void SignalRfftTwiddles(SignalRfftInt16Plan* plan) {
  constexpr double kPi = 3.141592653589793238462643383279502884197169399375105820974944;
  const int32_t n = plan->n;
  for (int32_t i = 0; i < n; ++i) {
    const double phase = -2 * kPi * i / n;
    plan->twiddles[i] = Cpx{Cosine(phase), Sine(phase)};
  }
  for (int32_t i = 0; i < n / 2; ++i) {
    const double phase = -kPi * (static_cast<double>(i + 1) / n + .5);
    plan->super_twiddles[i] = Cpx{Cosine(phase), Sine(phase)};
  }
}

void SignalRfftInt16(const SignalRfftInt16Plan& plan, const int16_t* time, SignalComplex16* bins) {
  const int32_t n = plan.n;
  Cpx* tmp = plan.spectrum;
  Work(tmp, reinterpret_cast<const Cpx*>(time), 1, plan.factors, plan.twiddles);
  Cpx dc = tmp[0];
  FixDiv(&dc, 2);
  bins[0].r = Wrap(dc.r + dc.i);
  bins[n].r = Wrap(dc.r - dc.i);
  bins[0].i = 0;
  bins[n].i = 0;
  for (int32_t k = 1; k <= n / 2; ++k) {
    Cpx fpk = tmp[k];
    Cpx fpnk{tmp[n - k].r, Wrap(-tmp[n - k].i)};
    FixDiv(&fpk, 2);
    FixDiv(&fpnk, 2);
    const Cpx f1k = AddC(fpk, fpnk);
    const Cpx f2k = SubC(fpk, fpnk);
    const Cpx tw = Mul(f2k, plan.super_twiddles[k - 1]);
    bins[k].r = Wrap((f1k.r + tw.r) >> 1);
    bins[k].i = Wrap((f1k.i + tw.i) >> 1);
    bins[n - k].r = Wrap((f1k.r - tw.r) >> 1);
    bins[n - k].i = Wrap((tw.i - f1k.i) >> 1);
  }
}

}  // namespace runtime
}  // namespace tflm_arena
