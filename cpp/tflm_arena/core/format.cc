#include "tflm_arena/core/format.h"

#include <cstdint>
#include <cstring>

namespace tflm_arena {
namespace {

// Output with snprintf's truncation rule; counts every character offered.
class Sink {
 public:
  Sink(char* out, size_t size) : out_(out), size_(size) {}
  void Put(char c) {
    if (len_ + 1 < size_) out_[len_] = c;
    ++len_;
  }
  void Fill(char c, int n) {
    for (; n > 0; --n) Put(c);
  }
  void Write(const char* s, size_t n) {
    for (size_t i = 0; i < n; ++i) Put(s[i]);
  }
  void Terminate() {
    if (size_ > 0) out_[len_ < size_ ? len_ : size_ - 1] = '\0';
  }
  size_t length() const { return len_; }

 private:
  char* out_;
  size_t size_;
  size_t len_ = 0;
};

struct Spec {
  bool left = false, plus = false, space = false, zero = false, alt = false;
  int width = 0;
  int precision = -1;  // -1: none given
  char conv = 0;
};

// Writes what goes before the body (sign / "0x" and the padding) and returns
// the number of spaces still owed after the body (left-justified output).
int PadBefore(Sink* s, const Spec& sp, const char* prefix, int prefix_len, int body_len,
              bool zero_pad) {
  int pad = sp.width - prefix_len - body_len;
  if (pad < 0) pad = 0;
  if (sp.left) {
    s->Write(prefix, prefix_len);
    return pad;
  }
  if (zero_pad) {
    s->Write(prefix, prefix_len);
    s->Fill('0', pad);
  } else {
    s->Fill(' ', pad);
    s->Write(prefix, prefix_len);
  }
  return 0;
}

// v /= d (d <= 16), returning the remainder, with 32-bit divisions only:
// a 64-bit division would pull __aeabi_uldivmod into 32-bit targets.
uint32_t DivSmall(uint64_t* v, uint32_t d) {
  const uint32_t hi = static_cast<uint32_t>(*v >> 32);
  const uint32_t lo = static_cast<uint32_t>(*v);
  const uint32_t q_hi = hi / d;
  uint32_t r = hi % d;
  const uint32_t mid = (r << 16) | (lo >> 16);
  const uint32_t q_mid = mid / d;
  r = mid % d;
  const uint32_t low = (r << 16) | (lo & 0xffffu);
  const uint32_t q_low = low / d;
  r = low % d;
  *v = (static_cast<uint64_t>(q_hi) << 32) | (q_mid << 16) | q_low;
  return r;
}

void FormatInteger(Sink* s, const Spec& sp, uint64_t magnitude, bool negative) {
  const char c = sp.conv;
  const uint32_t base = (c == 'x' || c == 'X' || c == 'p') ? 16 : c == 'o' ? 8 : 10;
  const char* digit_chars = c == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  char digits[24];
  int n = 0;
  for (uint64_t v = magnitude; v != 0;) digits[n++] = digit_chars[DivSmall(&v, base)];
  // Precision = minimum digit count (the value 0 with precision 0 prints none).
  int zeros = (sp.precision < 0 ? 1 : sp.precision) - n;
  if (zeros < 0) zeros = 0;
  if (c == 'o' && sp.alt && zeros == 0 && (n == 0 || digits[n - 1] != '0')) zeros = 1;

  char prefix[2] = {0, 0};
  int prefix_len = 0;
  if (c == 'd' || c == 'i') {
    if (negative) prefix[prefix_len++] = '-';
    else if (sp.plus) prefix[prefix_len++] = '+';
    else if (sp.space) prefix[prefix_len++] = ' ';
  } else if ((c == 'x' || c == 'X') && sp.alt && magnitude != 0) {
    prefix[prefix_len++] = '0';
    prefix[prefix_len++] = c;
  } else if (c == 'p') {
    prefix[prefix_len++] = '0';
    prefix[prefix_len++] = 'x';
  }
  const int after = PadBefore(s, sp, prefix, prefix_len, zeros + n, sp.zero && sp.precision < 0);
  s->Fill('0', zeros);
  while (n > 0) s->Put(digits[--n]);
  s->Fill(' ', after);
}

void FormatString(Sink* s, const Spec& sp, const char* str) {
  if (str == nullptr) str = (sp.precision < 0 || sp.precision >= 6) ? "(null)" : "";
  size_t n = 0;
  while ((sp.precision < 0 || n < static_cast<size_t>(sp.precision)) && str[n] != '\0') ++n;
  const int after = PadBefore(s, sp, "", 0, static_cast<int>(n), false);
  s->Write(str, n);
  s->Fill(' ', after);
}

// ---- Floating point: exact decimal digits by big-integer arithmetic ----

// An unsigned integer of up to kWords 32-bit words, least significant first.
// 40 words hold every value the conversion builds: at most 2^53 x 10^324
// (about 2^1130) and 10 x 2^1074.
constexpr int kWords = 40;
struct BigInt {
  uint32_t w[kWords];
  int n = 0;  // words in use; no leading zero words

  void Set(uint64_t v) {
    n = 0;
    for (; v != 0; v >>= 32) w[n++] = static_cast<uint32_t>(v);
  }
  void MulSmall(uint32_t m) {
    uint32_t carry = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t t = static_cast<uint64_t>(w[i]) * m + carry;
      w[i] = static_cast<uint32_t>(t);
      carry = static_cast<uint32_t>(t >> 32);
    }
    if (carry != 0) w[n++] = carry;
  }
  void MulPow10(int k) {
    for (; k >= 9; k -= 9) MulSmall(1000000000u);
    for (; k > 0; --k) MulSmall(10);
  }
  void ShiftLeft(int bits) {
    if (n == 0) return;
    const int words = bits / 32, rest = bits % 32;
    uint32_t high = 0;
    if (rest != 0) {
      high = w[n - 1] >> (32 - rest);
      for (int i = n - 1; i > 0; --i) w[i] = (w[i] << rest) | (w[i - 1] >> (32 - rest));
      w[0] <<= rest;
    }
    for (int i = n - 1; i >= 0; --i) w[i + words] = w[i];
    for (int i = 0; i < words; ++i) w[i] = 0;
    n += words;
    if (high != 0) w[n++] = high;
  }
  int Compare(const BigInt& o) const {
    if (n != o.n) return n < o.n ? -1 : 1;
    for (int i = n - 1; i >= 0; --i) {
      if (w[i] != o.w[i]) return w[i] < o.w[i] ? -1 : 1;
    }
    return 0;
  }
  void Sub(const BigInt& o) {  // requires *this >= o
    uint32_t borrow = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t t = static_cast<uint64_t>(w[i]) - (i < o.n ? o.w[i] : 0) - borrow;
      w[i] = static_cast<uint32_t>(t);
      borrow = static_cast<uint32_t>(t >> 63);
    }
    while (n > 0 && w[n - 1] == 0) --n;
  }
};

constexpr int kMaxDigits = 40;

// The first `count` significant decimal digits of mant x 2^e2 (mant > 0),
// rounded to nearest, ties to even (glibc's rule), and the decimal exponent
// of the first digit.
void DecimalDigits(uint64_t mant, int e2, int count, char* digits, int* exponent) {
  BigInt num, den;
  num.Set(mant);
  den.Set(1);
  if (e2 >= 0) num.ShiftLeft(e2);
  else den.ShiftLeft(-e2);
  int bits = 0;
  for (uint64_t m = mant; m != 0; m >>= 1) ++bits;
  // floor(log10(v)) estimate from floor(log2(v)); 78913 / 2^18 ~ log10(2).
  const int l2 = bits - 1 + e2;
  int k = l2 >= 0 ? (l2 * 78913) >> 18 : -((-l2 * 78913 + 262143) >> 18);
  if (k >= 0) den.MulPow10(k);
  else num.MulPow10(-k);
  // Fix the estimate so that 1 <= num / den < 10.
  for (;;) {
    BigInt ten_den = den;
    ten_den.MulSmall(10);
    if (num.Compare(ten_den) < 0) break;
    den = ten_den;
    ++k;
  }
  while (num.Compare(den) < 0) {
    num.MulSmall(10);
    --k;
  }
  for (int i = 0; i < count; ++i) {
    char d = 0;
    while (num.Compare(den) >= 0) {
      num.Sub(den);
      ++d;
    }
    digits[i] = static_cast<char>('0' + d);
    num.MulSmall(i + 1 < count ? 10 : 2);  // last: compare 2 x rest with den
  }
  const int half = num.Compare(den);
  if (half > 0 || (half == 0 && (digits[count - 1] - '0') % 2 == 1)) {
    int i = count - 1;
    while (i >= 0 && digits[i] == '9') digits[i--] = '0';
    if (i >= 0) {
      ++digits[i];
    } else {  // 9.99.. rounded up to 10.0..
      digits[0] = '1';
      ++k;
    }
  }
  *exponent = k;
}

// The body of an e / g conversion (no sign). Written twice: once into a
// counting sink for the padding, once for real.
struct FloatBody {
  const char* digits;  // `ndigits` significant digits; zeros after them
  int ndigits;
  int exponent;  // decimal exponent of digits[0]
  bool upper;

  char Digit(int i) const { return i >= 0 && i < ndigits ? digits[i] : '0'; }

  // d.ddd e+XX with `frac` digits after the point.
  void Scientific(Sink* s, int frac, bool point) const {
    s->Put(Digit(0));
    if (point) s->Put('.');
    for (int i = 1; i <= frac; ++i) s->Put(Digit(i));
    s->Put(upper ? 'E' : 'e');
    int e = exponent;
    s->Put(e < 0 ? '-' : '+');
    if (e < 0) e = -e;
    char buf[4];
    int n = 0;
    do {
      buf[n++] = static_cast<char>('0' + e % 10);
      e /= 10;
    } while (e != 0);
    if (n < 2) buf[n++] = '0';
    while (n > 0) s->Put(buf[--n]);
  }
  // Positional with `frac` digits after the point (all significant digits
  // fall within; exponent > -5).
  void Fixed(Sink* s, int frac, bool point) const {
    int next = 0;  // next significant digit to write
    if (exponent < 0) {
      s->Put('0');
    } else {
      for (; next <= exponent; ++next) s->Put(Digit(next));
    }
    if (point) s->Put('.');
    for (int i = 1; i <= frac; ++i) {
      // Position i after the point is digit index exponent + i.
      const int index = exponent + i;
      s->Put(index < 0 ? '0' : Digit(index));
    }
  }
};

void FormatFloat(Sink* s, const Spec& sp, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const bool negative = (bits >> 63) != 0;
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  const bool upper = sp.conv == 'G' || sp.conv == 'E';
  const bool is_g = sp.conv == 'g' || sp.conv == 'G';

  char prefix[1] = {0};
  int prefix_len = 0;
  if (negative) prefix[prefix_len++] = '-';
  else if (sp.plus) prefix[prefix_len++] = '+';
  else if (sp.space) prefix[prefix_len++] = ' ';

  if (biased == 0x7ff) {  // inf / nan: never zero-padded
    const char* text = fraction != 0 ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    const int after = PadBefore(s, sp, prefix, prefix_len, 3, false);
    s->Write(text, 3);
    s->Fill(' ', after);
    return;
  }

  int precision = sp.precision < 0 ? 6 : sp.precision;
  if (is_g && precision == 0) precision = 1;
  const int wanted = is_g ? precision : precision + 1;  // significant digits
  const int ndigits = wanted < kMaxDigits ? wanted : kMaxDigits;
  char digits[kMaxDigits];
  int exponent = 0;
  const uint64_t mant = biased == 0 ? fraction : fraction | (uint64_t{1} << 52);
  if (mant == 0) {
    std::memset(digits, '0', static_cast<size_t>(ndigits));
  } else {
    DecimalDigits(mant, biased == 0 ? -1074 : biased - 1075, ndigits, digits, &exponent);
  }
  FloatBody body{digits, ndigits, exponent, upper};

  bool fixed = false;
  int frac = precision;  // digits after the point
  if (is_g) {
    fixed = exponent >= -4 && exponent < precision;
    frac = fixed ? precision - 1 - exponent : precision - 1;
    if (!sp.alt) {
      // %g drops trailing zeros of the fraction (and then a bare point).
      const int first_frac = fixed ? exponent + 1 : 1;  // digit index after '.'
      while (frac > 0 && body.Digit(first_frac + frac - 1) == '0') --frac;
    }
  }
  const bool point = frac > 0 || sp.alt;

  Sink counter(nullptr, 0);
  if (fixed) body.Fixed(&counter, frac, point);
  else body.Scientific(&counter, frac, point);
  const int after =
      PadBefore(s, sp, prefix, prefix_len, static_cast<int>(counter.length()), sp.zero);
  if (fixed) body.Fixed(s, frac, point);
  else body.Scientific(s, frac, point);
  s->Fill(' ', after);
}

}  // namespace

int FormatV(char* out, size_t size, const char* format, va_list args) {
  Sink s(out, size);
  for (const char* p = format; *p != '\0'; ++p) {
    if (*p != '%') {
      s.Put(*p);
      continue;
    }
    const char* start = p;
    Spec sp;
    for (;; ++p) {
      const char f = p[1];
      if (f == '-') sp.left = true;
      else if (f == '+') sp.plus = true;
      else if (f == ' ') sp.space = true;
      else if (f == '0') sp.zero = true;
      else if (f == '#') sp.alt = true;
      else break;
    }
    ++p;
    if (*p == '*') {
      sp.width = va_arg(args, int);
      if (sp.width < 0) {
        sp.left = true;
        sp.width = -sp.width;
      }
      ++p;
    } else {
      while (*p >= '0' && *p <= '9') sp.width = sp.width * 10 + (*p++ - '0');
    }
    if (*p == '.') {
      ++p;
      sp.precision = 0;
      if (*p == '*') {
        sp.precision = va_arg(args, int);
        if (sp.precision < 0) sp.precision = -1;
        ++p;
      } else {
        while (*p >= '0' && *p <= '9') sp.precision = sp.precision * 10 + (*p++ - '0');
      }
    }
    // Length: 'h' / 'H' (hh), 'l' / 'q' (ll), 'z', 'j', 't', 'L'.
    char length = 0;
    if (*p == 'h' || *p == 'l') {
      length = *p++;
      if (*p == length) {
        length = length == 'h' ? 'H' : 'q';
        ++p;
      }
    } else if (*p == 'z' || *p == 'j' || *p == 't' || *p == 'L') {
      length = *p++;
    }
    sp.conv = *p;
    switch (sp.conv) {
      case 'd':
      case 'i': {
        int64_t v;
        switch (length) {
          case 'H':
            v = static_cast<signed char>(va_arg(args, int));
            break;
          case 'h':
            v = static_cast<short>(va_arg(args, int));
            break;
          case 'l':
            v = va_arg(args, long);
            break;
          case 'q':
            v = va_arg(args, long long);
            break;
          // NOLINTNEXTLINE(bugprone-branch-clone): ptrdiff_t and intmax_t differ on 32-bit targets.
          case 'z':
          case 't':
            v = va_arg(args, ptrdiff_t);
            break;
          case 'j':
            v = va_arg(args, intmax_t);
            break;
          default:
            v = va_arg(args, int);
            break;
        }
        const uint64_t magnitude =
            v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
        FormatInteger(&s, sp, magnitude, v < 0);
        break;
      }
      case 'u':
      case 'x':
      case 'X':
      case 'o': {
        uint64_t v;
        switch (length) {
          case 'H':
            v = static_cast<unsigned char>(va_arg(args, unsigned));
            break;
          case 'h':
            v = static_cast<unsigned short>(va_arg(args, unsigned));
            break;
          case 'l':
            v = va_arg(args, unsigned long);
            break;
          case 'q':
            v = va_arg(args, unsigned long long);
            break;
          // NOLINTNEXTLINE(bugprone-branch-clone): size_t and uintmax_t differ on 32-bit targets.
          case 'z':
          case 't':
            v = va_arg(args, size_t);
            break;
          case 'j':
            v = va_arg(args, uintmax_t);
            break;
          default:
            v = va_arg(args, unsigned);
            break;
        }
        FormatInteger(&s, sp, v, false);
        break;
      }
      case 'p': {
        const void* ptr = va_arg(args, void*);
        if (ptr == nullptr) {
          sp.precision = -1;
          FormatString(&s, sp, "(nil)");
        } else {
          FormatInteger(&s, sp, reinterpret_cast<uintptr_t>(ptr), false);
        }
        break;
      }
      case 'c': {
        const char c = static_cast<char>(va_arg(args, int));
        const int after = PadBefore(&s, sp, "", 0, 1, false);
        s.Put(c);
        s.Fill(' ', after);
        break;
      }
      case 's':
        FormatString(&s, sp, va_arg(args, const char*));
        break;
      case 'g':
      case 'G':
      case 'e':
      case 'E':
        FormatFloat(
            &s, sp,
            length == 'L' ? static_cast<double>(va_arg(args, long double)) : va_arg(args, double));
        break;
      case '%':
        s.Put('%');
        break;
      case 'f':
      case 'F':
      case 'a':
      case 'A':
        // Unsupported (format.h): keep the arguments in step.
        // NOLINTNEXTLINE(bugprone-branch-clone): the branches read different types.
        if (length == 'L') (void)va_arg(args, long double);
        else (void)va_arg(args, double);
        s.Put('%');
        s.Put(sp.conv);
        break;
      case 'n':
        (void)va_arg(args, void*);
        s.Write("%n", 2);
        break;
      default:  // unknown or a format ending in '%...': copy it as written
        for (const char* q = start; q <= p && *q != '\0'; ++q) s.Put(*q);
        if (*p == '\0') --p;
        break;
    }
  }
  s.Terminate();
  return static_cast<int>(s.length());
}

int Format(char* out, size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = FormatV(out, size, format, args);
  va_end(args);
  return n;
}

}  // namespace tflm_arena
