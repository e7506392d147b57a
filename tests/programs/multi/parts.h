// multi/parts.h — what main.cu calls in the other two files.
#include <cuda_runtime.h>
cudaError_t scale_part(int *v, int n, int factor);
cudaError_t square_part(int *v, int n);
