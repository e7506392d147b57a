"""numba_matmul.py — a 16x16-tiled matrix product through two cuda.shared.array tiles, checked
against NumPy (lineinfo=True: sanitizer findings name this file's lines).

    gpulab profile -- python3 examples/numba_matmul.py
"""
import numpy as np
from numba import cuda, float32

TILE = 16


@cuda.jit(lineinfo=True)
def matmul(a, b, c):
    sa = cuda.shared.array((TILE, TILE), float32)
    sb = cuda.shared.array((TILE, TILE), float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    row = cuda.blockIdx.y * TILE + ty
    col = cuda.blockIdx.x * TILE + tx
    n = a.shape[1]
    acc = float32(0.0)
    for k0 in range(0, n, TILE):
        sa[ty, tx] = a[row, k0 + tx] if row < a.shape[0] and k0 + tx < n else 0.0
        sb[ty, tx] = b[k0 + ty, col] if k0 + ty < n and col < b.shape[1] else 0.0
        cuda.syncthreads()
        for k in range(TILE):
            acc += sa[ty, k] * sb[k, tx]
        cuda.syncthreads()
    if row < c.shape[0] and col < c.shape[1]:
        c[row, col] = acc


m, k, n = 48, 40, 56  # not multiples of the tile
rng = np.random.default_rng(2)
a = rng.random((m, k), dtype=np.float32)
b = rng.random((k, n), dtype=np.float32)
d_c = cuda.device_array((m, n), dtype=np.float32)
grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
matmul[grid, (TILE, TILE)](cuda.to_device(a), cuda.to_device(b), d_c)
c = d_c.copy_to_host()
err = float(np.abs(c - a @ b).max())
print(f"numba_matmul: {m}x{k} @ {k}x{n}, max error {err:.3g}: {'OK' if err < 1e-4 else 'WRONG'}")
raise SystemExit(0 if err < 1e-4 else 1)
