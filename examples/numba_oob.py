"""numba_oob.py — a Numba kernel with an out-of-bounds write (the guard is `<=` where it must be `<`):
gpulab's sanitizer reports the write and names this file's line (lineinfo=True).

    gpulab profile -- python3 examples/numba_oob.py
"""
import numpy as np
from numba import cuda


@cuda.jit(lineinfo=True)
def scale(x, out):
    i = cuda.grid(1)
    if i <= x.size:  # off by one: thread x.size writes past the end
        out[i] = 2.0 * i


n = 1000
x = cuda.to_device(np.ones(n, dtype=np.float32))
out = cuda.device_array(n, dtype=np.float32)
scale[(n + 127) // 128, 128](x, out)
cuda.synchronize()
print("numba_oob: done")
