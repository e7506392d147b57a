// The solution of exercise 04-transpose-tiled: a 32 x 32 tile through shared memory; both global sides
// are read and written along rows.  (The shared tile still has bank conflicts: exercise 05.)
extern "C" __global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
	__shared__ float tile[32][32];
	int c = blockIdx.x * 32 + threadIdx.x;
	for (int j = threadIdx.y; j < 32; j += 8) {
		int r = blockIdx.y * 32 + j;
		if (r < rows && c < cols)
			tile[j][threadIdx.x] = in[r * cols + c];
	}
	__syncthreads();
	int oc = blockIdx.y * 32 + threadIdx.x; /* a column of out is a row of in */
	for (int j = threadIdx.y; j < 32; j += 8) {
		int orow = blockIdx.x * 32 + j;
		if (orow < cols && oc < rows)
			out[orow * rows + oc] = tile[threadIdx.x][j];
	}
}
