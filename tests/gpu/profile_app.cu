// profile_app.cu — a small CUDA program for tests/gpu/check.sh: `gpulab profile` runs it on the GPU
// (CUPTI injection) and on the simulator, and `compare --runs --strict` holds their counts side by side.
// Built by stock nvcc with its defaults; checks its own results and exits 1 when they are wrong.
#include <cstdio>
#include <cstdlib>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

// One partial sum per block through shared memory (a tree with __syncthreads).
__global__ void block_sum(const float *in, float *out, int n)
{
	__shared__ float s[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (int half = blockDim.x / 2; half > 0; half /= 2) {
		if (threadIdx.x < half)
			s[threadIdx.x] += s[threadIdx.x + half];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = s[0];
}

#define CHECK(call)                                                                              \
	do {                                                                                     \
		cudaError_t e_ = (call);                                                         \
		if (e_ != cudaSuccess) {                                                         \
			fprintf(stderr, "profile_app: %s: %s\n", #call, cudaGetErrorString(e_)); \
			return 1;                                                                \
		}                                                                                \
	} while (0)

int main(void)
{
	const int n = 1 << 16, threads = 256, blocks = n / threads;
	float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
	float *c = (float *)malloc(n * sizeof(float)), *part = (float *)malloc(blocks * sizeof(float));
	for (int i = 0; i < n; i++) {
		a[i] = (float)(i % 7);
		b[i] = (float)(i % 5);
	}
	float *da, *db, *dc, *dp;
	CHECK(cudaMalloc(&da, n * sizeof(float)));
	CHECK(cudaMalloc(&db, n * sizeof(float)));
	CHECK(cudaMalloc(&dc, n * sizeof(float)));
	CHECK(cudaMalloc(&dp, blocks * sizeof(float)));
	CHECK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));
	vector_add<<<blocks, threads>>>(da, db, dc, n);
	CHECK(cudaGetLastError());
	block_sum<<<blocks, threads>>>(dc, dp, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(part, dp, blocks * sizeof(float), cudaMemcpyDeviceToHost));
	double want = 0, got = 0;
	int bad = 0;
	for (int i = 0; i < n; i++) {
		bad += c[i] != a[i] + b[i];
		want += a[i] + b[i];
	}
	for (int k = 0; k < blocks; k++)
		got += part[k];
	printf("profile_app: %d of %d sums wrong, total %.0f (want %.0f)\n", bad, n, got, want);
	return bad || got != want;
}
