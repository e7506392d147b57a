/* sim_simd.h — hot full-warp loops compiled twice, for AVX2 and for the baseline x86-64, and picked when
 * the program loads (an ifunc): one source, which the compiler vectorises 8 lanes at a time where the
 * machine has AVX2.  Elsewhere (other architectures, other compilers) the attribute is empty. */
#ifndef GL_SIM_SIMD_H
#define GL_SIM_SIMD_H

#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define SIM_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef SIM_SIMD_CLONES
#define SIM_SIMD_CLONES
#endif

#endif
