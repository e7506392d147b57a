// refused/rdc_part.cu — the device function rdc_main.cu calls.
__device__ int twice(int x)
{
	return 2 * x;
}
