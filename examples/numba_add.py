"""numba_add.py — a Numba @cuda.jit vector add, checked against NumPy.

    gpulab profile -- python3 examples/numba_add.py
"""
import numpy as np
from numba import cuda


@cuda.jit
def vector_add(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


n = 100_000
rng = np.random.default_rng(1)
a = rng.random(n, dtype=np.float32)
b = rng.random(n, dtype=np.float32)
d_a, d_b = cuda.to_device(a), cuda.to_device(b)
d_c = cuda.device_array_like(a)
threads = 128
vector_add[(n + threads - 1) // threads, threads](d_a, d_b, d_c)
c = d_c.copy_to_host()
ok = np.allclose(c, a + b)
print(f"numba_add: {n} sums, max error {np.abs(c - (a + b)).max():.3g}: {'OK' if ok else 'WRONG'}")
raise SystemExit(0 if ok else 1)
