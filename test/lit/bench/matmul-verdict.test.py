import sys
import numpy as np

sys.path.insert(0, sys.argv[1])
from matmul_verdict import check  # noqa: E402

rs = np.random.RandomState(0)
ref = rs.randn(64, 32) @ rs.randn(32, 48)
cublas = ref.astype(np.float16).astype(np.float64)
check(cublas.copy(), ref, cublas, "same 64x48x32", "cuBLAS fp8")
nan = cublas.copy()
nan[3, 4] = np.nan
worse = ref + 3 * (cublas - ref)
for name, out in (("offset", cublas + 0.5), ("twice", worse), ("nan", nan),
                  ("shape", cublas[:, :40])):
    try:
        check(out, ref, cublas, name)
        print("accepted", name)
    except (AssertionError, ValueError) as e:
        print("refused", name + (": " + str(e) if name == "nan" else ""))
