"""cupy_rawkernel.py — a CuPy RawKernel (CUDA C compiled by NVRTC) summing per block in shared memory,
checked against NumPy.

    gpulab profile -- python3 examples/cupy_rawkernel.py
"""
import cupy as cp
import numpy as np

block_sum = cp.RawKernel(r'''
extern "C" __global__ void block_sum(const float *x, float *partial, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}
''', 'block_sum')

n, threads = 1 << 16, 256
blocks = (n + threads - 1) // threads
x_host = (np.arange(n) % 10).astype(np.float32)
x = cp.asarray(x_host)
partial = cp.zeros(blocks, dtype=cp.float32)
block_sum((blocks,), (threads,), (x, partial, cp.int32(n)))
got, want = float(cp.asnumpy(partial).sum()), float(x_host.sum(dtype=np.float64))
print(f"cupy_rawkernel: sum of {n} values = {got:.0f} (NumPy {want:.0f}): {'OK' if got == want else 'WRONG'}")
raise SystemExit(0 if got == want else 1)
