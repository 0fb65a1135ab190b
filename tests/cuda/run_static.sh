#!/bin/bash
# The CUDA tests built with nvcc's default flags (no -cudart: NVIDIA's runtime linked
# statically into the program, which reaches ptxsim through libcuda.so.1 and the private
# interface tables, docs/cuda-driver.md): a subset that covers start-up and the
# handshake, module loading, kernels, globals and constants, copies, streams and events,
# device printf, a device fault, attributes and occupancy, texture objects, a device reset (the runtime's
# context-local storage destructors), multi-file programs and exit, __managed__ variables
# (cuLibraryGetManaged), the device heap's size set after start-up, a bad launch
# configuration's error and a -rdc=true program (the units' PTX linked in process), run in both modes by
# tests/cuda/run.sh. `CUDA_TEST_CUDART=static tests/cuda/run.sh` runs every program so.
# Environment and output as tests/cuda/run.sh.
here="$(cd "$(dirname "$0")" && pwd)"
export CUDA_TEST_CUDART=static
exec bash "$here/run.sh" vector_add matmul_tiled constant_symbols device_symbols streams_events \
    printf_basic error_oob launch_api occupancy device_reset textures multi_tu \
    unified_memory device_malloc error_invalid_config rdc_link "$@"
