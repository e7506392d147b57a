"""cupy_elementwise.py — a CuPy ElementwiseKernel and plain array arithmetic (each a kernel CuPy
generates and NVRTC compiles), checked against NumPy.

    gpulab profile -- python3 examples/cupy_elementwise.py
"""
import cupy as cp
import numpy as np

squared_diff = cp.ElementwiseKernel('float32 x, float32 y', 'float32 z', 'z = (x - y) * (x - y)', 'squared_diff')

rng = np.random.default_rng(3)
a_host = rng.random(50_000, dtype=np.float32)
b_host = rng.random(50_000, dtype=np.float32)
a, b = cp.asarray(a_host), cp.asarray(b_host)
z = squared_diff(a, b)
w = a * 2 + b  # CuPy's own kernels for * and +
ok = np.allclose(cp.asnumpy(z), (a_host - b_host) ** 2) and np.allclose(cp.asnumpy(w), a_host * 2 + b_host)
print(f"cupy_elementwise: {a.size} elements, squared differences and a*2+b: {'OK' if ok else 'WRONG'}")
raise SystemExit(0 if ok else 1)
