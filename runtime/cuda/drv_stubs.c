/* Definitions of the unimplemented driver entry points listed in drv_stubs.def. */
#include "runtime/cuda/drv_stubs.h"

#define DRV_STUB(name)                                                                             \
    __attribute__((visibility("default"))) int name(void);                                         \
    int name(void)                                                                                 \
    {                                                                                              \
        return drv_stub_unsupported(#name);                                                        \
    }
#include "runtime/cuda/drv_stubs.def"
#undef DRV_STUB

#define DRV_STUB(name) {#name, (void *)name},
const struct drv_named_fn drv_stub_table[] = {
#include "runtime/cuda/drv_stubs.def"
};
#undef DRV_STUB

const size_t drv_stub_count = sizeof(drv_stub_table) / sizeof(drv_stub_table[0]);
