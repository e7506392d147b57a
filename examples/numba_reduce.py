"""numba_reduce.py — a shared-memory block reduction with cuda.syncthreads() and one atomic add per
block, checked against NumPy.

    gpulab profile -- python3 examples/numba_reduce.py
"""
import numpy as np
from numba import cuda, float32

THREADS = 256


@cuda.jit
def block_sum(x, total):
    s = cuda.shared.array(THREADS, float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    s[t] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    half = THREADS // 2
    while half > 0:
        if t < half:
            s[t] += s[t + half]
        cuda.syncthreads()
        half //= 2
    if t == 0:
        cuda.atomic.add(total, 0, s[0])


n = 1 << 16
x = (np.arange(n) % 10).astype(np.float32)  # exact in float32: the sum is an integer
total = cuda.to_device(np.zeros(1, dtype=np.float32))
block_sum[(n + THREADS - 1) // THREADS, THREADS](cuda.to_device(x), total)
got, want = float(total.copy_to_host()[0]), float(x.sum(dtype=np.float64))
print(f"numba_reduce: sum of {n} values = {got:.0f} (NumPy {want:.0f}): {'OK' if got == want else 'WRONG'}")
raise SystemExit(0 if got == want else 1)
