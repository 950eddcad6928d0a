// KISS FFT v130's arithmetic, as TFLM's SignalRfft runs it (see
// signal_rfft.h for the facts), once for the three scalars: 16-bit and
// 32-bit fixed point and float. Every sum kiss stores back into a scalar is
// truncated the same way here (Traits::Narrow); every product is formed as
// kiss's smul, with wrapping instead of signed overflow.
#include <cmath>

#include "tflm_arena/runtime/kernels/signal_rfft.h"

namespace tflm_arena {
namespace runtime {
namespace {

// 16-bit fixed point: sums in int (exact), products in int32.
struct Fixed16 {
  using Scalar = int16_t;
  using Wide = int32_t;  // C's int: what a sum of two int16 is
  static Scalar Narrow(Wide x) { return static_cast<int16_t>(static_cast<uint16_t>(x)); }
  static Wide Add(Wide a, Wide b) { return a + b; }
  static Wide Sub(Wide a, Wide b) { return a - b; }
  static Wide Half(Wide x) { return x >> 1; }
  static Wide Neg(Wide x) { return -x; }
  static Scalar Sround(int64_t x) { return Narrow(static_cast<Wide>((x + (1 << 14)) >> 15)); }
  static int64_t Smul(Scalar a, Scalar b) { return int64_t{a} * b; }
  static Scalar SMul(Scalar a, Scalar b) { return Sround(Smul(a, b)); }
  static Scalar MulSum(Scalar ar, Scalar br, Scalar ai, Scalar bi, bool minus) {
    // sround(smul(ar, br) -/+ smul(ai, bi)) with kiss's int32 SAMPPROD.
    const auto p = static_cast<uint32_t>(ar * br);
    const auto q = static_cast<uint32_t>(ai * bi);
    return Sround(static_cast<int32_t>(minus ? p - q : p + q));
  }
  static void Div(Scalar* x, int k) { *x = Sround(Smul(*x, static_cast<Scalar>(32767 / k))); }
  static Scalar Twiddle(double v) { return static_cast<Scalar>(std::floor(.5 + 32767 * v)); }
};

// 32-bit fixed point: sums wrap in 32 bits, products in int64.
struct Fixed32 {
  using Scalar = int32_t;
  using Wide = int32_t;
  static Scalar Narrow(Wide x) { return x; }
  static Wide Add(Wide a, Wide b) {
    return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
  }
  static Wide Sub(Wide a, Wide b) {
    return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
  }
  static Wide Half(Wide x) { return x >> 1; }
  static Wide Neg(Wide x) { return Sub(0, x); }
  static Scalar Sround(int64_t x) {
    return static_cast<int32_t>(
        static_cast<int64_t>(static_cast<uint64_t>(x) + (uint64_t{1} << 30)) >> 31);
  }
  static int64_t Smul(Scalar a, Scalar b) { return int64_t{a} * b; }
  static Scalar SMul(Scalar a, Scalar b) { return Sround(Smul(a, b)); }
  static Scalar MulSum(Scalar ar, Scalar br, Scalar ai, Scalar bi, bool minus) {
    const auto p = static_cast<uint64_t>(Smul(ar, br));
    const auto q = static_cast<uint64_t>(Smul(ai, bi));
    return Sround(static_cast<int64_t>(minus ? p - q : p + q));
  }
  static void Div(Scalar* x, int k) { *x = Sround(Smul(*x, 2147483647 / k)); }
  static Scalar Twiddle(double v) { return static_cast<Scalar>(std::floor(.5 + 2147483647.0 * v)); }
};

// Float: no divisions by the radix; HALF_OF multiplies by 0.5f.
struct Float {
  using Scalar = float;
  using Wide = float;
  static Scalar Narrow(Wide x) { return x; }
  static Wide Add(Wide a, Wide b) { return a + b; }
  static Wide Sub(Wide a, Wide b) { return a - b; }
  static Wide Half(Wide x) { return x * 0.5f; }
  static Wide Neg(Wide x) { return -x; }
  static Scalar SMul(Scalar a, Scalar b) { return a * b; }
  static Scalar MulSum(Scalar ar, Scalar br, Scalar ai, Scalar bi, bool minus) {
    return minus ? ar * br - ai * bi : ar * br + ai * bi;
  }
  static void Div(Scalar*, int) {}
  static Scalar Twiddle(double v) { return static_cast<Scalar>(v); }
};

template <typename X>
struct Ops {
  using S = typename X::Scalar;
  using W = typename X::Wide;
  using Cpx = SignalComplex<S>;

  static S Sum(W a, W b) { return X::Narrow(X::Add(a, b)); }
  static S Dif(W a, W b) { return X::Narrow(X::Sub(a, b)); }
  static Cpx Mul(Cpx a, Cpx b) {
    return Cpx{X::MulSum(a.r, b.r, a.i, b.i, true), X::MulSum(a.r, b.i, a.i, b.r, false)};
  }
  static void FixDiv(Cpx* c, int k) {
    X::Div(&c->r, k);
    X::Div(&c->i, k);
  }
  static Cpx AddC(Cpx a, Cpx b) { return Cpx{Sum(a.r, b.r), Sum(a.i, b.i)}; }
  static Cpx SubC(Cpx a, Cpx b) { return Cpx{Dif(a.r, b.r), Dif(a.i, b.i)}; }

  static void Butterfly2(Cpx* out, size_t fstride, const Cpx* tw, int32_t m) {
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

  static void Butterfly3(Cpx* out, size_t fstride, const Cpx* tw, int32_t m) {
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
      out[m].r = Dif(out->r, X::Half(s3.r));
      out[m].i = Dif(out->i, X::Half(s3.i));
      s0.r = X::SMul(s0.r, epi3.i);
      s0.i = X::SMul(s0.i, epi3.i);
      *out = AddC(*out, s3);
      out[m2].r = Sum(out[m].r, s0.i);
      out[m2].i = Dif(out[m].i, s0.r);
      out[m].r = Dif(out[m].r, s0.i);
      out[m].i = Sum(out[m].i, s0.r);
      ++out;
    }
  }

  static void Butterfly4(Cpx* out, size_t fstride, const Cpx* tw, int32_t m) {
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
      out[m].r = Sum(s5.r, s4.i);
      out[m].i = Dif(s5.i, s4.r);
      out[m3].r = Dif(s5.r, s4.i);
      out[m3].i = Sum(s5.i, s4.r);
      ++out;
    }
  }

  // a + SMul(b, c) + SMul(d, e), evaluated left to right as kiss's C.
  static S Sum3(S a, S b, S c, S d, S e) {
    return X::Narrow(X::Add(X::Add(a, X::SMul(b, c)), X::SMul(d, e)));
  }

  static void Butterfly5(Cpx* out, size_t fstride, const Cpx* tw, int32_t m) {
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
      o0->r = X::Narrow(X::Add(o0->r, X::Add(s7.r, s8.r)));
      o0->i = X::Narrow(X::Add(o0->i, X::Add(s7.i, s8.i)));
      const Cpx s5{Sum3(s0.r, s7.r, ya.r, s8.r, yb.r), Sum3(s0.i, s7.i, ya.r, s8.i, yb.r)};
      const Cpx s6{X::Narrow(X::Add(X::SMul(s10.i, ya.i), X::SMul(s9.i, yb.i))),
                   X::Narrow(X::Sub(X::Neg(X::SMul(s10.r, ya.i)), X::SMul(s9.r, yb.i)))};
      *o1 = SubC(s5, s6);
      *o4 = AddC(s5, s6);
      const Cpx s11{Sum3(s0.r, s7.r, yb.r, s8.r, ya.r), Sum3(s0.i, s7.i, yb.r, s8.i, ya.r)};
      const Cpx s12{X::Narrow(X::Add(X::Neg(X::SMul(s10.i, yb.i)), X::SMul(s9.i, ya.i))),
                    X::Narrow(X::Sub(X::SMul(s10.r, yb.i), X::SMul(s9.r, ya.i)))};
      *o2 = AddC(s11, s12);
      *o3 = SubC(s11, s12);
      ++o0, ++o1, ++o2, ++o3, ++o4;
    }
  }

  // kiss's kf_work (in_stride 1): out[0, p*m) from `in` read every
  // `fstride` elements.
  static void Work(Cpx* out, const Cpx* in, size_t fstride, const int32_t* factors, const Cpx* tw) {
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

  static void Twiddles(SignalRfftPlan* plan) {
    constexpr double kPi = 3.141592653589793238462643383279502884197169399375105820974944;
    const int32_t n = plan->n;
    auto* tw = static_cast<Cpx*>(plan->twiddles);
    auto* super = static_cast<Cpx*>(plan->super_twiddles);
    for (int32_t i = 0; i < n; ++i) {
      const double phase = -2 * kPi * i / n;
      tw[i] = Cpx{X::Twiddle(std::cos(phase)), X::Twiddle(std::sin(phase))};
    }
    for (int32_t i = 0; i < n / 2; ++i) {
      const double phase = -kPi * (static_cast<double>(i + 1) / n + .5);
      super[i] = Cpx{X::Twiddle(std::cos(phase)), X::Twiddle(std::sin(phase))};
    }
  }

  // kiss_fftr.
  static void Row(const SignalRfftPlan& plan, const S* time, Cpx* bins) {
    const int32_t n = plan.n;
    auto* tmp = static_cast<Cpx*>(plan.spectrum);
    const auto* super = static_cast<const Cpx*>(plan.super_twiddles);
    Work(tmp, reinterpret_cast<const Cpx*>(time), 1, plan.factors,
         static_cast<const Cpx*>(plan.twiddles));
    Cpx dc = tmp[0];
    FixDiv(&dc, 2);
    bins[0].r = Sum(dc.r, dc.i);
    bins[n].r = Dif(dc.r, dc.i);
    bins[0].i = 0;
    bins[n].i = 0;
    for (int32_t k = 1; k <= n / 2; ++k) {
      Cpx fpk = tmp[k];
      Cpx fpnk{tmp[n - k].r, X::Narrow(X::Neg(tmp[n - k].i))};
      FixDiv(&fpk, 2);
      FixDiv(&fpnk, 2);
      const Cpx f1k = AddC(fpk, fpnk);
      const Cpx f2k = SubC(fpk, fpnk);
      const Cpx tw = Mul(f2k, super[k - 1]);
      bins[k].r = X::Narrow(X::Half(X::Add(f1k.r, tw.r)));
      bins[k].i = X::Narrow(X::Half(X::Add(f1k.i, tw.i)));
      bins[n - k].r = X::Narrow(X::Half(X::Sub(f1k.r, tw.r)));
      bins[n - k].i = X::Narrow(X::Half(X::Sub(tw.i, f1k.i)));
    }
  }
};

}  // namespace

size_t SignalRfftSampleBytes(SignalRfftType type) { return type == SignalRfftType::kInt16 ? 2 : 4; }

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

void SignalRfftTwiddles(SignalRfftPlan* plan) {
  switch (plan->type) {
    case SignalRfftType::kInt16:
      Ops<Fixed16>::Twiddles(plan);
      break;
    case SignalRfftType::kInt32:
      Ops<Fixed32>::Twiddles(plan);
      break;
    case SignalRfftType::kFloat32:
      Ops<Float>::Twiddles(plan);
      break;
  }
}

void SignalRfftRow(const SignalRfftPlan& plan, const void* time, void* bins) {
  switch (plan.type) {
    case SignalRfftType::kInt16:
      Ops<Fixed16>::Row(plan, static_cast<const int16_t*>(time),
                        static_cast<SignalComplex<int16_t>*>(bins));
      break;
    case SignalRfftType::kInt32:
      Ops<Fixed32>::Row(plan, static_cast<const int32_t*>(time),
                        static_cast<SignalComplex<int32_t>*>(bins));
      break;
    case SignalRfftType::kFloat32:
      Ops<Float>::Row(plan, static_cast<const float*>(time),
                      static_cast<SignalComplex<float>*>(bins));
      break;
  }
}

}  // namespace runtime
}  // namespace tflm_arena
