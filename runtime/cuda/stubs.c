/*
 * Definitions of the entry points listed in stubs.def. Each takes no
 * declared arguments: on x86-64 (and every ABI ptxsim targets) the caller
 * owns its argument registers and stack, so a function that ignores them may
 * be called with any argument list, and an int return carries a
 * cudaError_t.
 */
#include "runtime/cuda/stubs.h"

#define RT_STUB(name)                                                                              \
    __attribute__((visibility("default"))) int name(void);                                        \
    int name(void)                                                                                 \
    {                                                                                              \
        return rt_unsupported(#name);                                                              \
    }
#include "runtime/cuda/stubs.def"
#undef RT_STUB
