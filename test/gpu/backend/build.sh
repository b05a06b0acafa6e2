#!/bin/bash
# Builds the backend GPU checks: every test kernel as OUT/NAME.cubin +
# OUT/NAME.json (tkc), and the two host programs (raw CUDA driver API).
#   test/gpu/backend/build.sh BUILD_DIR OUT_DIR
# then on the GPU machine:
#   OUT_DIR/backend_check OUT_DIR          correctness (exit 1 on a failure)
#   OUT_DIR/backend_bench OUT_DIR          GB/s on the seed shapes
# (backend_bench clears L2 before each timed launch, as do_bench does; run
# shared/bench/triton_ref.py in the same session to compare.)
set -u
BUILD=${1:?build dir}; OUT=${2:?output dir}
ARCH=${ARCH:-sm_90a}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
E=$ROOT/examples; G=$HERE/kernels; B=$BUILD/bin
CUDA=${CUDA:-/usr/local/cuda}
mkdir -p "$OUT"
status=0
k() { # NAME FILE KERNEL WARPS [tkc options]
  local name=$1 file=$2 kern=$3 warps=$4; shift 4
  if $B/tkc "$file" -k "$kern" --arch=$ARCH --num-warps "$warps" "$@" -o "$OUT/$name.cubin"; then
    echo "ok $name"
  else
    echo "FAIL $name"; status=1
  fi
}
m() { # NAME FILE.mlir: a tkgpu-level kernel
  local name=$1 file=$2
  $B/tk-opt "$file" --convert-tkgpu-to-llvm --canonicalize --cse --reconcile-unrealized-casts -o "$OUT/$name.llvm.mlir" &&
  $B/tk-translate --tk-to-ptx --tk-arch=$ARCH "$OUT/$name.llvm.mlir" -o "$OUT/$name.ptx" &&
  $CUDA/bin/ptxas -arch=$ARCH -O3 "$OUT/$name.ptx" -o "$OUT/$name.cubin" &&
  $B/tk-translate --tk-metadata --tk-arch=$ARCH "$OUT/$name.llvm.mlir" -o "$OUT/$name.json" &&
  echo "ok $name" || { echo "FAIL $name"; status=1; }
}
A=--assume-aligned-pointers
# Correctness (backend_check).
k add_a $E/add.tk add 4 -D BLOCK=4096 $A --assume n=16
k add_u $E/add.tk add 4 -D BLOCK=1024
k gelu $E/gelu.tk gelu 4 -D BLOCK=2048 $A --assume n=16
k sm16k $E/softmax.tk softmax 16 -D BLOCK=16384 $A --assume in_stride=16 --assume out_stride=16
k sm1k $E/softmax.tk softmax 4 -D BLOCK=1024
k ln $E/layernorm.tk layernorm 8 -D BLOCK=4096 $A --assume stride=16
k rms $E/rmsnorm.tk rmsnorm 8 -D BLOCK=4096 $A --assume stride=16
k smo $E/softmax_online.tk softmax_online 8 -D BLOCK=2048 $A --assume in_stride=16 --assume out_stride=16
k hist $E/histogram.tk histogram 4 -D BLOCK=1024 -D NUM_BINS=256 $A
k mm $E/matmul.tk matmul 4 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32 -D GROUP_M=8 -D LEAKY=True $A
k red2d $G/red2d.tk red2d 4 -D M=64 -D N=128 $A
k red2d8 $G/red2d.tk red2d 8 -D M=16 -D N=512 $A
k scan1d $G/scan.tk scan1d 4 -D BLOCK=1024 $A
k scan2d $G/scan.tk scan2d 4 -D M=32 -D N=64 $A
k shapes $G/shape.tk shapes 4 -D M=64 -D N=32 $A
k atoms $G/atom.tk atoms 4 -D BLOCK=512 $A
k dotk $G/dotk.tk dotk 4 -D M=32 -D N=64 -D K=32 $A
k mathk $G/misc.tk mathk 4 -D BLOCK=512
k printk $G/misc.tk printk 1
k softmax2d $G/more.tk softmax2d 4 -D M=32 -D N=64 $A
k softmax2d8 $G/more.tk softmax2d 8 -D M=16 -D N=256 $A
k colnorm $G/more.tk colnorm 8 -D M=64 -D N=32 $A
k reshapek $G/more.tk reshapek 4 -D M=16 -D N=64 $A
k loops $G/more.tk loops 4 -D BLOCK=256 $A
k types $G/more.tk types 4 -D BLOCK=256 $A
k atoms64 $G/more.tk atoms64 4 -D BLOCK=256 $A
k scan8 $G/more.tk scan8 8 -D M=32 -D N=64 $A
k dups $G/more.tk dups 4 -D BLOCK=64 $A
m convert $G/convert.mlir
# Bandwidth (backend_bench): Triton's specializations (aligned pointers,
# integer arguments divisible by 16).
k b_add1k $E/add.tk add 4 -D BLOCK=1024 $A --assume n=16
k b_add4k $E/add.tk add 4 -D BLOCK=4096 $A --assume n=16
k b_gelu1k $E/gelu.tk gelu 4 -D BLOCK=1024 $A --assume n=16
k b_gelu2k $E/gelu.tk gelu 4 -D BLOCK=2048 $A --assume n=16
S="$A --assume in_stride=16 --assume out_stride=16 --assume n_cols=16"
k b_sm1k $E/softmax.tk softmax 4 -D BLOCK=1024 $S
k b_sm4k $E/softmax.tk softmax 8 -D BLOCK=4096 $S
k b_sm16k $E/softmax.tk softmax 16 -D BLOCK=16384 $S
k b_sm781 $E/softmax.tk softmax 4 -D BLOCK=1024 $A
R="$A --assume stride=16 --assume n_cols=16"
k b_rms4k $E/rmsnorm.tk rmsnorm 8 -D BLOCK=4096 $R
k b_rms8k $E/rmsnorm.tk rmsnorm 8 -D BLOCK=8192 $R

for prog in backend_check backend_bench; do
  g++ -O2 -std=c++17 -I$CUDA/include "$HERE/$prog.cpp" -L$CUDA/lib64/stubs -lcuda -o "$OUT/$prog" || status=1
done
exit $status
