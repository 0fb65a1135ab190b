#!/bin/bash
# Regenerates the fat binary fixtures of tests/unit/frontend/test_fatbin.c
# (run by hand, once per toolkit change; the outputs are checked in):
#
#   vadd_{none,default,speed,size}.fatbin  .nv_fatbin of vadd.cu built with
#                                          -arch=sm_75 --compress-mode=MODE
#   vadd_multi.fatbin    ELF sm_75 + PTX compute_75 + PTX compute_80 (default
#                        compression)
#   libtiny.elf          tiny.cu as a stripped shared library (-shared -cudart
#                        shared); not named .so, which .gitignore ignores
#
# Usage: tests/fatbin/regen.sh [NVCC]   (default /usr/local/cuda/bin/nvcc)
set -eu
nvcc=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for mode in none default speed size; do
    "$nvcc" -cudart shared -arch=sm_75 --compress-mode=$mode -o "$tmp/vadd_$mode" "$here/vadd.cu"
    objcopy -O binary --only-section=.nv_fatbin "$tmp/vadd_$mode" "$here/vadd_$mode.fatbin"
done
"$nvcc" -cudart shared -gencode arch=compute_75,code='[sm_75,compute_75]' \
    -gencode arch=compute_80,code=compute_80 -o "$tmp/vadd_multi" "$here/vadd.cu"
objcopy -O binary --only-section=.nv_fatbin "$tmp/vadd_multi" "$here/vadd_multi.fatbin"
"$nvcc" -shared -Xcompiler -fPIC -cudart shared -arch=sm_75 -o "$here/libtiny.elf" "$here/tiny.cu"
strip "$here/libtiny.elf"
ls -l "$here"/*.fatbin "$here/libtiny.elf"
