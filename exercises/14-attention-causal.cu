// The solution of exercise 14-attention-causal: one warp per query, lane = dimension; keys j <= i only,
// dot products by xor-shuffle, online softmax in registers.
extern "C" __global__ void attention_causal(const float *q, const float *k, const float *v, float *o, int T)
{
	int i = blockIdx.x, d = threadIdx.x;
	float qd = q[i * 32 + d], m = -INFINITY, s = 0.0f, acc = 0.0f;
	const float scale = rsqrtf(32.0f);
	for (int j = 0; j <= i; j++) {
		float dot = qd * k[j * 32 + d];
		for (int off = 16; off > 0; off /= 2)
			dot += __shfl_xor_sync(0xffffffffu, dot, off);
		float score = dot * scale, m2 = fmaxf(m, score);
		float r = __expf(m - m2), w = __expf(score - m2);
		s = s * r + w;
		acc = acc * r + w * v[j * 32 + d];
		m = m2;
	}
	o[i * 32 + d] = acc / s;
}
