// transpose.cu — matrix transpose, the classic lesson in global-memory coalescing and shared-memory
// bank conflicts (NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++" layout: float elements,
// 32x32 tiles, blocks of 32x8 threads, each thread moving 4 elements).
//
//   variant    what it teaches
//   copy       the bandwidth ceiling: a plain copy with the same access pattern as the reads
//   naive      reads coalesced, writes strided by `rows` floats: 32 sectors per store request
//   coalesced  through a tile[32][32] in shared memory: both global sides coalesced, but the column
//              read from the tile hits one bank 32 times (32-way bank conflicts)
//   padded     tile[32][33]: one padding column shifts each row by a bank, conflict-free
//   swizzled   tile[32][32] with the column XOR-ed by the row: conflict-free without padding
//
// in is rows x cols (row-major), out is cols x rows.  Edges are guarded, so any size works.
#define TILE_DIM 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose_copy(float *out, const float *in, int rows, int cols)
{
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		if (x < cols && y + j < rows)
			out[(y + j) * cols + x] = in[(y + j) * cols + x];
}

extern "C" __global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		if (x < cols && y + j < rows)
			out[x * rows + (y + j)] = in[(y + j) * cols + x];
}

extern "C" __global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
	__shared__ float tile[TILE_DIM][TILE_DIM];
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		if (x < cols && y + j < rows)
			tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
	__syncthreads();
	x = blockIdx.y * TILE_DIM + threadIdx.x; // transposed block offset
	y = blockIdx.x * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		if (x < rows && y + j < cols)
			out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_padded(float *out, const float *in, int rows, int cols)
{
	__shared__ float tile[TILE_DIM][TILE_DIM + 1];
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		if (x < cols && y + j < rows)
			tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
	__syncthreads();
	x = blockIdx.y * TILE_DIM + threadIdx.x;
	y = blockIdx.x * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		if (x < rows && y + j < cols)
			out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_swizzled(float *out, const float *in, int rows, int cols)
{
	__shared__ float tile[TILE_DIM][TILE_DIM];
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
		int r = threadIdx.y + j;
		if (x < cols && y + j < rows)
			tile[r][threadIdx.x ^ r] = in[(y + j) * cols + x];
	}
	__syncthreads();
	x = blockIdx.y * TILE_DIM + threadIdx.x;
	y = blockIdx.x * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
		int c = threadIdx.y + j; // element (threadIdx.x, c) of the tile sits in column c ^ threadIdx.x
		if (x < rows && y + j < cols)
			out[(y + j) * rows + x] = tile[threadIdx.x][c ^ threadIdx.x];
	}
}
