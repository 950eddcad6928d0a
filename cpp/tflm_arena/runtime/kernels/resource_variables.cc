// The resource-variable table (resource_variables.h).
#include "tflm_arena/runtime/kernels/resource_variables.h"

#include <new>

#include "tflm_arena/core/c_string.h"
#include "tflm_arena/runtime/interpreter.h"

namespace tflm_arena {
namespace runtime {
namespace {

// TFLM's FindId match.
bool Matches(const char* container, const char* shared_name, const char* c2, const char* s2) {
  return (container == nullptr || (c2 != nullptr && SameCString(container, c2))) &&
         SameCString(shared_name, s2);
}

// How many distinct variables the model's VAR_HANDLEs name.
Status CountVariables(const model::Model& m, size_t* count) {
  *count = 0;
  for (size_t sg = 0; sg < m.num_subgraphs(); ++sg) {
    for (size_t i = 0; i < m.num_operators(sg); ++i) {
      model::OperatorInfo op;
      TFLM_ARENA_RETURN_IF_ERROR(m.op(sg, i, &op));
      if (op.builtin_code != model::kBuiltinVarHandle) continue;
      const char* c = nullptr;
      const char* n = nullptr;
      model::OptionsTable t;
      TFLM_ARENA_RETURN_IF_ERROR(m.builtin_options(sg, i, &t));
      if (!VarHandleNames(t, &c, &n).ok()) continue;  // refused by its own Prepare
      bool seen = false;  // by an earlier handle (quadratic: models have tens)
      for (size_t sg2 = 0; sg2 <= sg && !seen; ++sg2) {
        const size_t end = sg2 == sg ? i : m.num_operators(sg2);
        for (size_t j = 0; j < end && !seen; ++j) {
          model::OperatorInfo op2;
          model::OptionsTable t2;
          const char* c2 = nullptr;
          const char* n2 = nullptr;
          seen = m.op(sg2, j, &op2).ok() && op2.builtin_code == model::kBuiltinVarHandle &&
                 m.builtin_options(sg2, j, &t2).ok() && VarHandleNames(t2, &c2, &n2).ok() &&
                 (Matches(c, n, c2, n2) || Matches(c2, n2, c, n));
        }
      }
      if (!seen) ++*count;
    }
  }
  return Status::Ok();
}

}  // namespace

Status CreateResourceVariables(KernelContext& context, ResourceVariables** out) {
  void** slot = context.resource_variables();
  if (*slot == nullptr) {
    size_t handles = 0;
    TFLM_ARENA_RETURN_IF_ERROR(CountVariables(context.interpreter()->model(), &handles));
    void* table = nullptr;
    void* variables = nullptr;
    TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(sizeof(ResourceVariables), &table));
    TFLM_ARENA_RETURN_IF_ERROR(
        context.AllocatePersistentBuffer(handles * sizeof(ResourceVariable), &variables));
    auto* t = new (table) ResourceVariables();
    t->variables = static_cast<ResourceVariable*>(variables);
    for (size_t i = 0; i < handles; ++i) new (t->variables + i) ResourceVariable();
    t->capacity = handles;
    *slot = t;
  }
  *out = static_cast<ResourceVariables*>(*slot);
  return Status::Ok();
}

ResourceVariables* GetResourceVariables(KernelContext& context) {
  return static_cast<ResourceVariables*>(*context.resource_variables());
}

Status VarHandleNames(model::OptionsTable& table, const char** container,
                      const char** shared_name) {
  // The reader's strings point into the model and end in a NUL it checked.
  Span<const char> c, n;
  *container = table.String(0, &c) ? c.data() : nullptr;
  *shared_name = table.String(1, &n) ? n.data() : nullptr;
  if (*shared_name == nullptr || !table.ok()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "VAR_HANDLE: no shared_name in its VarHandleOptions (TFLM would compare "
                         "a null name)");
  }
  return Status::Ok();
}

Status FindOrAddResourceVariable(ResourceVariables* table, const char* container,
                                 const char* shared_name, int32_t* id) {
  for (size_t i = 0; i < table->count; ++i) {
    const ResourceVariable& v = table->variables[i];
    if (Matches(container, shared_name, v.container, v.shared_name)) {
      *id = static_cast<int32_t>(i);
      return Status::Ok();
    }
  }
  if (table->count >= table->capacity) {
    return Status::Error(StatusCode::kInternal, "more resource variables than VAR_HANDLEs");
  }
  ResourceVariable& v = table->variables[table->count];
  v.container = container;
  v.shared_name = shared_name;
  *id = static_cast<int32_t>(table->count++);
  return Status::Ok();
}

Status ResourceVariableAt(ResourceVariables* table, int32_t id, ResourceVariable** out) {
  if (table == nullptr || id < 0 || static_cast<size_t>(id) >= table->count) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "resource variable %d does not exist (%zu created)", static_cast<int>(id),
                         table == nullptr ? size_t{0} : table->count);
  }
  *out = &table->variables[id];
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena
