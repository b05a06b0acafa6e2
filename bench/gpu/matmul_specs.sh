# matmul_specs.sh -- sourced by the bench scripts that compile matmul
# kernels: the tkc --assume flags of each operand layout, as Triton's JIT
# would specialize the arguments of that layout.
#   rr16: A and B row-major; M, N, K and leading strides multiples of 16;
#         aligned pointers
#   rr:   A and B row-major, nothing else known (unaligned shapes)
#   cc:   A and B column-major, otherwise as rr16
#   any:  nothing known (strided views, offset pointers)
matmul_spec() {
  case $1 in
    rr16) echo "--assume-aligned-pointers --assume M=16 --assume N=16 --assume K=16 --assume stride_ak=1 --assume stride_bn=1 --assume stride_cn=1 --assume stride_am=16 --assume stride_bk=16 --assume stride_cm=16" ;;
    rr)   echo "--assume stride_ak=1 --assume stride_bn=1 --assume stride_cn=1" ;;
    cc)   echo "--assume-aligned-pointers --assume M=16 --assume N=16 --assume K=16 --assume stride_am=1 --assume stride_bk=1 --assume stride_cn=1 --assume stride_ak=16 --assume stride_bn=16 --assume stride_cm=16" ;;
    any)  echo "" ;;
  esac
}
