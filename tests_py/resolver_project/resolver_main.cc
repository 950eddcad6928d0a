// Runs models with a GENERATED op resolver (tflm-arena resolver --runtime
// tflm_arena): the test writes the header "generated_resolver.h" defining
// AddModelOps() and kAddModelOpsCount, builds this program against the
// runtime libraries and runs it on model files.
//
// Prints one line per model, "<path>: OK ..." or "<path>: FAILED <code>:
// <message>", and exits 1 if any model failed (2 for a usage or file error).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "generated_resolver.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/op_resolver.h"

namespace {

bool ReadFile(const char* path, std::vector<uint8_t>* out) {
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return false;
  uint8_t chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) out->insert(out->end(), chunk, chunk + n);
  bool ok = std::ferror(f) == 0;
  std::fclose(f);
  return ok;
}

int Fail(const char* path, const tflm_arena::Status& s) {
  std::printf("%s: FAILED %s: %s\n", path, tflm_arena::StatusCodeName(s.code()), s.message());
  return 1;
}

// 1 MiB is plenty for the shared models this test runs (person_detect's
// arena is under 100 KiB).
alignas(16) uint8_t g_arena[1 << 20];

int Run(const char* path) {
  std::vector<uint8_t> bytes;  // operator new keeps it 16-aligned
  if (!ReadFile(path, &bytes)) {
    std::printf("%s: cannot read the file\n", path);
    return 2;
  }
  tflm_arena::model::Model model;
  tflm_arena::Status s = tflm_arena::model::Model::FromBuffer(bytes.data(), bytes.size(), &model);
  if (!s.ok()) return Fail(path, s);
  tflm_arena::runtime::MutableOpResolver<kAddModelOpsCount> resolver;
  s = AddModelOps(&resolver);
  if (!s.ok()) return Fail(path, s);
  tflm_arena::runtime::Interpreter interpreter(model, resolver, g_arena, sizeof(g_arena));
  s = interpreter.AllocateTensors();
  if (!s.ok()) return Fail(path, s);
  s = interpreter.Invoke();  // inputs are zeros: the static arena starts zeroed
  if (!s.ok()) return Fail(path, s);
  std::printf("%s: OK (%zu kernels registered, arena %zu bytes)\n", path, resolver.size(),
              interpreter.required_arena_bytes());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL [MODEL...]\n", argv[0]);
    return 2;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    int r = Run(argv[i]);
    if (r > status) status = r;
  }
  return status;
}
