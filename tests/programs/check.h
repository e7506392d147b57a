// check.h — what every test program shares: CHECK(call) prints the CUDA error a runtime call returned,
// with the call and its line, and exits 1, as programs written for a GPU do.
#ifndef GL_PROGRAMS_CHECK_H
#define GL_PROGRAMS_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                        \
	do {                                                                                               \
		cudaError_t e_ = (call);                                                                   \
		if (e_ != cudaSuccess) {                                                                   \
			std::printf("CUDA error at %s:%d: %s: %s\n", __FILE__, __LINE__, #call,            \
				    cudaGetErrorString(e_));                                               \
			std::exit(1);                                                                      \
		}                                                                                          \
	} while (0)

#endif
