// The solution of exercise 05-transpose-padded: the tiled transpose with each tile row padded to 33
// floats, so a column of the tile spans all 32 banks: no conflicts.
extern "C" __global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
	__shared__ float tile[32][33];
	int c = blockIdx.x * 32 + threadIdx.x;
	for (int j = threadIdx.y; j < 32; j += 8) {
		int r = blockIdx.y * 32 + j;
		if (r < rows && c < cols)
			tile[j][threadIdx.x] = in[r * cols + c];
	}
	__syncthreads();
	int oc = blockIdx.y * 32 + threadIdx.x;
	for (int j = threadIdx.y; j < 32; j += 8) {
		int orow = blockIdx.x * 32 + j;
		if (orow < cols && oc < rows)
			out[orow * rows + oc] = tile[threadIdx.x][j];
	}
}
