// The solution of exercise 08-scan: a shuffle scan per warp, the 8 warp totals scanned by warp 0, then
// each warp adds the totals before it.
extern "C" __global__ void scan_block(const float *x, float *y, int n)
{
	__shared__ float sums[8];
	int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, i = blockIdx.x * 256 + tid;
	float v = i < n ? x[i] : 0.0f;
	for (int off = 1; off < 32; off *= 2) {
		float t = __shfl_up_sync(0xffffffffu, v, off);
		if (lane >= off)
			v += t;
	}
	if (lane == 31)
		sums[warp] = v;
	__syncthreads();
	if (warp == 0) {
		float s = lane < 8 ? sums[lane] : 0.0f;
		for (int off = 1; off < 8; off *= 2) {
			float t = __shfl_up_sync(0xffffffffu, s, off);
			if (lane >= off)
				s += t;
		}
		if (lane < 8)
			sums[lane] = s;
	}
	__syncthreads();
	if (warp > 0)
		v += sums[warp - 1];
	if (i < n)
		y[i] = v;
}
