#!/usr/bin/env bash
# Builds an A/B variant of the kernel benchmark: native/bench/wixbench relinked with one translation
# unit recompiled with extra nvcc flags (tuning knobs such as -DGLHT_THREAD_PASS=0), as
# build/cuda/native/bench/wixbench_NAME. Needs a configured and built CUDA tree in build/cuda.
#   scripts/bench-variant.sh NAME SRC [NVCC FLAGS...]   e.g. scripts/bench-variant.sh tp0 native/src/glht/glht_kernels.cu -DGLHT_THREAD_PASS=0
# SRC_FILE=path compiles another copy of SRC (an older revision checked out elsewhere; put its
# native/src first with -I).
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,7p "$0"; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
name=$1 src=$2
shift 2
cd "$root/build/cuda"
obj=CMakeFiles/wixlib_objects.dir/$src.o
[ -f "$obj" ] || { echo "no $obj: build build/cuda first" >&2; exit 1; }
out=$PWD/native/bench/variant_$name.o
nvcc -DWIXLIB_HAVE_CUDA=1 -DWIXLIB_VERSION_STRING=\"0.1.0\" "$@" --options-file CMakeFiles/wixlib_objects.dir/includes_CUDA.rsp \
  -O3 -DNDEBUG --generate-code=arch=compute_90,code=[sm_90] -Xcompiler=-fPIC -Xcompiler=-fvisibility=hidden \
  --expt-relaxed-constexpr -lineinfo -std=c++17 -c "${SRC_FILE:-$root/$src}" -o "$out"
cd native/bench
link=$(sed "s#../../$obj#$out#; s#-o wixbench #-o wixbench_$name #" CMakeFiles/wixbench.dir/link.txt)
eval "$link"
echo "built $PWD/wixbench_$name"
