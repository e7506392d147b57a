// streams.cu — two streams, events and host callbacks, and a CUDA graph captured from the streams:
// stream a scales x while stream b scales y, b waits for a's event before adding them, host functions
// and a stream callback run in stream order, event timings are read, and the captured graph replays
// the same work three more times, and a buffer allocated from the default memory pool in stream order.
// Every result is checked against the CPU.
#include <cmath>
#include <cstdint>
#include "check.h"

__global__ void scale(float *v, int n, float f)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] *= f;
}

__global__ void add(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += x[i];
}

static int order[8], norder;

static void CUDART_CB host_step(void *tag)
{
	order[norder++] = (int)(size_t)tag;
}

static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *tag)
{
	order[norder++] = status == cudaSuccess ? (int)(size_t)tag : -1;
}

// One round of the work: x *= 2 on a, y *= 3 on b, b waits for a, y += x on b.
static void round(cudaStream_t a, cudaStream_t b, cudaEvent_t done_a, float *x, float *y, int n)
{
	int blocks = (n + 255) / 256;
	scale<<<blocks, 256, 0, a>>>(x, n, 2.0f);
	CHECK(cudaEventRecord(done_a, a));
	scale<<<blocks, 256, 0, b>>>(y, n, 3.0f);
	CHECK(cudaStreamWaitEvent(b, done_a, 0));
	add<<<blocks, 256, 0, b>>>(x, y, n);
}

int main()
{
	const int n = 5000;
	float *hx, *hy, *x, *y;
	CHECK(cudaMallocHost(&hx, n * sizeof(float)));
	CHECK(cudaMallocHost(&hy, n * sizeof(float)));
	for (int i = 0; i < n; i++) {
		hx[i] = 1.0f + i % 7;
		hy[i] = 0.5f * (i % 11);
	}
	CHECK(cudaMalloc(&x, n * sizeof(float)));
	CHECK(cudaMalloc(&y, n * sizeof(float)));
	cudaStream_t a, b;
	cudaEvent_t start, stop, done_a;
	CHECK(cudaStreamCreate(&a));
	CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	CHECK(cudaEventCreateWithFlags(&done_a, cudaEventDisableTiming));

	CHECK(cudaMemcpyAsync(x, hx, n * sizeof(float), cudaMemcpyHostToDevice, a));
	CHECK(cudaMemcpyAsync(y, hy, n * sizeof(float), cudaMemcpyHostToDevice, b));
	CHECK(cudaLaunchHostFunc(a, host_step, (void *)1));
	CHECK(cudaEventRecord(start, b));
	round(a, b, done_a, x, y, n);
	CHECK(cudaEventRecord(stop, b));
	CHECK(cudaStreamAddCallback(b, callback, (void *)2, 0));
	CHECK(cudaLaunchHostFunc(b, host_step, (void *)3));
	CHECK(cudaStreamSynchronize(b));
	float ms = -1;
	CHECK(cudaEventElapsedTime(&ms, start, stop));

	// the same round captured from the streams, replayed three times
	cudaGraph_t graph;
	cudaGraphExec_t exec;
	CHECK(cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal));
	cudaEvent_t fork, join;
	CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
	CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
	CHECK(cudaEventRecord(fork, a));
	CHECK(cudaStreamWaitEvent(b, fork, 0));
	round(a, b, done_a, x, y, n);
	CHECK(cudaEventRecord(join, b));
	CHECK(cudaStreamWaitEvent(a, join, 0));
	CHECK(cudaStreamEndCapture(a, &graph));
	size_t nodes = 0;
	CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
	CHECK(cudaGraphInstantiate(&exec, graph, 0));
	for (int k = 0; k < 3; k++)
		CHECK(cudaGraphLaunch(exec, a));
	CHECK(cudaStreamSynchronize(a));
	CHECK(cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost));

	int bad = 0;
	for (int i = 0; i < n; i++) {
		double rx = 1.0 + i % 7, ry = 0.5 * (i % 11);
		for (int k = 0; k < 4; k++) {
			rx *= 2;
			ry = 3 * ry + rx;
		}
		if (std::fabs(hy[i] - ry) > 1e-4 * std::fabs(ry) && bad++ < 5)
			std::printf("mismatch at %d: %g vs %g\n", i, hy[i], ry);
	}
	std::printf("two streams, events and a %zu-node graph replayed 3 times: %s\n", nodes,
		    bad ? "FAILED" : "y matches the CPU");
	std::printf("host functions and callback ran in order: %d %d %d\n", order[0], order[1], order[2]);
	std::printf("elapsed between the events: %s\n", ms > 0 ? "positive" : "not positive");
	bad += order[0] != 1 || order[1] != 2 || order[2] != 3 || !(ms > 0);
	CHECK(cudaGraphExecDestroy(exec));
	CHECK(cudaGraphDestroy(graph));

	// stream-ordered allocation from the device's default pool, its byte counts before and after
	cudaMemPool_t pool;
	uint64_t threshold = UINT64_MAX, used_in = 0, used_out = 1;
	CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
	CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
	float *tmp;
	CHECK(cudaMallocAsync(&tmp, n * sizeof(float), a));
	CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used_in));
	CHECK(cudaMemcpyAsync(tmp, y, n * sizeof(float), cudaMemcpyDeviceToDevice, a));
	scale<<<(n + 255) / 256, 256, 0, a>>>(tmp, n, 0.5f);
	CHECK(cudaMemcpyAsync(hx, tmp, n * sizeof(float), cudaMemcpyDeviceToHost, a));
	CHECK(cudaFreeAsync(tmp, a));
	CHECK(cudaStreamSynchronize(a));
	CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used_out));
	int pooled_bad = used_in < n * sizeof(float) || used_out != 0;
	for (int i = 0; i < n; i++)
		pooled_bad += hx[i] != 0.5f * hy[i];
	std::printf("stream-ordered allocation: %s (pool in use: %llu bytes, then %llu)\n", pooled_bad ? "FAILED" : "ok",
		    (unsigned long long)used_in, (unsigned long long)used_out);

	// a captured graph that allocates, uses and frees its own buffer: each launch gets it back
	cudaGraph_t g2;
	cudaGraphExec_t e2;
	CHECK(cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal));
	CHECK(cudaMallocAsync(&tmp, n * sizeof(float), a));
	CHECK(cudaMemcpyAsync(tmp, y, n * sizeof(float), cudaMemcpyDeviceToDevice, a));
	scale<<<(n + 255) / 256, 256, 0, a>>>(tmp, n, 4.0f);
	CHECK(cudaMemcpyAsync(hx, tmp, n * sizeof(float), cudaMemcpyDeviceToHost, a));
	CHECK(cudaFreeAsync(tmp, a));
	CHECK(cudaStreamEndCapture(a, &g2));
	CHECK(cudaGraphInstantiate(&e2, g2, 0));
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < n; i++)
			hx[i] = -1;
		CHECK(cudaGraphLaunch(e2, a));
		CHECK(cudaStreamSynchronize(a));
		for (int i = 0; i < n; i++)
			pooled_bad += hx[i] != 4.0f * hy[i];
	}
	std::printf("a graph that allocates and frees its own buffer, launched twice: %s\n", pooled_bad ? "FAILED" : "ok");
	CHECK(cudaGraphExecDestroy(e2));
	CHECK(cudaGraphDestroy(g2));
	return bad || pooled_bad ? 1 : 0;
}
