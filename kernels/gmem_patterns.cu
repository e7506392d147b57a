// gmem_patterns.cu — global-memory access patterns, after NVIDIA's "How to Access Global Memory
// Efficiently in CUDA C/C++ Kernels": a copy whose reads start `offset` floats late, a copy whose
// reads are `stride` floats apart, and a float4 copy.
//
//   variant    what it teaches
//   offset     out[i] = in[i + offset]: offset 0 reads 4 sectors per request; any offset that is not
//              a multiple of 8 floats makes each warp straddle a 5th sector
//   stride     out[i] = in[i * stride]: sectors per request grow with the stride up to 32
//   vector4    out4[i] = in4[i]: 16-byte accesses, 16 sectors per request, a quarter of the requests
extern "C" __global__ void gmem_offset(float *out, const float *in, int n, int offset)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i + offset];
}

extern "C" __global__ void gmem_stride(float *out, const float *in, int n, int stride)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[(long long)i * stride];
}

extern "C" __global__ void gmem_vector4(float4 *out, const float4 *in, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n4)
		out[i] = in[i];
}
