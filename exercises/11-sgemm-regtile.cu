// The solution of exercise 11-sgemm-regtile: 64 x 64 block tile, 16-wide K steps, 4 x 4 outputs per
// thread; each shared value read into a register feeds 4 FMAs.
extern "C" __global__ void sgemm_regtile(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[64][17], Bs[16][64];
	int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
	int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
	float acc[4][4] = {};
	for (int k0 = 0; k0 < K; k0 += 16) {
		for (int e = t; e < 64 * 16; e += 256) {
			int r = e / 16, k = e % 16; /* A tile: 64 rows x 16 */
			As[r][k] = row0 + r < M && k0 + k < K ? A[(row0 + r) * K + k0 + k] : 0.0f;
			int kb = e / 64, c = e % 64; /* B tile: 16 rows x 64 */
			Bs[kb][c] = k0 + kb < K && col0 + c < N ? B[(k0 + kb) * N + col0 + c] : 0.0f;
		}
		__syncthreads();
		for (int k = 0; k < 16; k++) {
			float a[4], b[4];
			for (int i = 0; i < 4; i++)
				a[i] = As[ty * 4 + i][k];
			for (int j = 0; j < 4; j++)
				b[j] = Bs[k][tx * 4 + j];
			for (int i = 0; i < 4; i++)
				for (int j = 0; j < 4; j++)
					acc[i][j] += a[i] * b[j];
		}
		__syncthreads();
	}
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
			if (r < M && c < N)
				C[r * N + c] = acc[i][j];
		}
}
