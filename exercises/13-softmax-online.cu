// The solution of exercise 13-softmax-online: one pass for the running max and rescaled sum per lane,
// a shuffle merge of the (max, sum) pairs, a second pass for the output.
extern "C" __global__ void softmax_online(const float *x, float *y, int rows, int cols)
{
	const float *in = x + (long)blockIdx.x * cols;
	float *out = y + (long)blockIdx.x * cols;
	float m = -INFINITY, s = 0.0f;
	for (int c = threadIdx.x; c < cols; c += 32) {
		float v = in[c], m2 = fmaxf(m, v);
		s = s * __expf(m - m2) + __expf(v - m2);
		m = m2;
	}
	for (int off = 16; off > 0; off /= 2) {
		float mo = __shfl_xor_sync(0xffffffffu, m, off), so = __shfl_xor_sync(0xffffffffu, s, off);
		float m2 = fmaxf(m, mo);
		s = (s == 0.0f ? 0.0f : s * __expf(m - m2)) + (so == 0.0f ? 0.0f : so * __expf(mo - m2));
		m = m2;
	}
	for (int c = threadIdx.x; c < cols; c += 32)
		out[c] = __expf(in[c] - m) / s;
}
