// texture.cu — texture objects as programs make them with the runtime API: a 1D texture over linear
// memory read with tex1Dfetch, and a 2D CUDA array sampled with tex2D under bilinear filtering, clamped
// addressing and normalized coordinates.  Both are checked against a CPU reference of the same rules
// (the CUDA programming guide's texture fetching appendix: 9-bit fixed-point weights aside, which the
// tolerance covers).
#include <cmath>
#include "check.h"

__global__ void fetch1d(cudaTextureObject_t t, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = 2.0f * tex1Dfetch<float>(t, i);
}

__global__ void sample2d(cudaTextureObject_t t, float *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h) // the centre of output texel (x, y) of a grid twice as fine
		out[y * w + x] = tex2D<float>(t, (x + 0.5f) / w, (y + 0.5f) / h);
}

static float texel(const float *img, int iw, int ih, int x, int y)
{
	x = x < 0 ? 0 : x >= iw ? iw - 1 : x; // clamp
	y = y < 0 ? 0 : y >= ih ? ih - 1 : y;
	return img[y * iw + x];
}

static float bilinear(const float *img, int iw, int ih, float u, float v)
{
	float xb = u * iw - 0.5f, yb = v * ih - 0.5f;
	int x0 = (int)std::floor(xb), y0 = (int)std::floor(yb);
	float a = xb - x0, b = yb - y0;
	return (1 - a) * (1 - b) * texel(img, iw, ih, x0, y0) + a * (1 - b) * texel(img, iw, ih, x0 + 1, y0) +
	       (1 - a) * b * texel(img, iw, ih, x0, y0 + 1) + a * b * texel(img, iw, ih, x0 + 1, y0 + 1);
}

static int check1d()
{
	const int n = 1000;
	float h[n], got[n], *d_in, *d_out;
	for (int i = 0; i < n; i++)
		h[i] = 0.25f * i - 7.0f;
	CHECK(cudaMalloc(&d_in, n * sizeof(float)));
	CHECK(cudaMalloc(&d_out, n * sizeof(float)));
	CHECK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice));
	cudaResourceDesc res = {};
	res.resType = cudaResourceTypeLinear;
	res.res.linear.devPtr = d_in;
	res.res.linear.desc = cudaCreateChannelDesc<float>();
	res.res.linear.sizeInBytes = sizeof h;
	cudaTextureDesc td = {};
	td.readMode = cudaReadModeElementType;
	cudaTextureObject_t t;
	CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
	fetch1d<<<(n + 127) / 128, 128>>>(t, d_out, n);
	CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
	CHECK(cudaDestroyTextureObject(t));
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += got[i] != 2.0f * h[i];
	std::printf("tex1Dfetch over linear memory: %s\n", bad ? "MISMATCH" : "matches the CPU");
	cudaFree(d_in);
	cudaFree(d_out);
	return bad;
}

static int check2d()
{
	const int iw = 16, ih = 8, w = 32, h = 16;
	float img[ih * iw], got[h * w], *d_out;
	for (int y = 0; y < ih; y++)
		for (int x = 0; x < iw; x++)
			img[y * iw + x] = std::sin(0.3f * x) + 0.1f * y * y;
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
	cudaArray_t arr;
	CHECK(cudaMallocArray(&arr, &cd, iw, ih));
	CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, iw * sizeof(float), iw * sizeof(float), ih, cudaMemcpyHostToDevice));
	cudaResourceDesc res = {};
	res.resType = cudaResourceTypeArray;
	res.res.array.array = arr;
	cudaTextureDesc td = {};
	td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
	td.filterMode = cudaFilterModeLinear;
	td.readMode = cudaReadModeElementType;
	td.normalizedCoords = 1;
	cudaTextureObject_t t;
	CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
	CHECK(cudaMalloc(&d_out, sizeof got));
	sample2d<<<dim3(w / 16, h / 8), dim3(16, 8)>>>(t, d_out, w, h);
	CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
	CHECK(cudaDestroyTextureObject(t));
	float worst = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			float want = bilinear(img, iw, ih, (x + 0.5f) / w, (y + 0.5f) / h);
			worst = std::fmax(worst, std::fabs(got[y * w + x] - want));
		}
	bool ok = worst < 1e-2f; // the hardware's 8-bit fraction of the weights
	std::printf("tex2D bilinear, clamped, normalized over a 16x8 array: %s\n", ok ? "matches the CPU" : "MISMATCH");
	cudaFreeArray(arr);
	cudaFree(d_out);
	return !ok;
}

int main()
{
	int bad = check1d() + check2d();
	std::printf("textures: %s\n", bad ? "FAILED" : "all checks passed");
	return bad ? 1 : 0;
}
