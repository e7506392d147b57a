// The solution of exercise 12-mma-tile: one warp per 16 x 8 tile of C, one mma.sync m16n8k16 per K step,
// fragments loaded from global memory as pairs of halves (the PTX ISA's m16n8k16 layouts).
#include <cuda_fp16.h>

extern "C" __global__ void mma_tile(const __half *A, const __half *Bt, float *C, int M, int N, int K)
{
	int lane = threadIdx.x, g = lane / 4, t = lane % 4;
	int row = blockIdx.y * 16, col = blockIdx.x * 8;
	const unsigned *a = (const unsigned *)A, *b = (const unsigned *)Bt; /* pairs of halves */
	float c0 = 0.0f, c1 = 0.0f, c2 = 0.0f, c3 = 0.0f;
	for (int k0 = 0; k0 < K; k0 += 16) {
		unsigned a0 = a[((row + g) * K + k0 + 2 * t) / 2];
		unsigned a1 = a[((row + g + 8) * K + k0 + 2 * t) / 2];
		unsigned a2 = a[((row + g) * K + k0 + 2 * t + 8) / 2];
		unsigned a3 = a[((row + g + 8) * K + k0 + 2 * t + 8) / 2];
		unsigned b0 = b[((col + g) * K + k0 + 2 * t) / 2];
		unsigned b1 = b[((col + g) * K + k0 + 2 * t + 8) / 2];
		asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
			     "{%8,%9}, {%0,%1,%2,%3};"
			     : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
			     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
	}
	C[(row + g) * N + col + 2 * t] = c0;
	C[(row + g) * N + col + 2 * t + 1] = c1;
	C[(row + g + 8) * N + col + 2 * t] = c2;
	C[(row + g + 8) * N + col + 2 * t + 1] = c3;
}
