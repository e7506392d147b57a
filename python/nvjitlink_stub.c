/* nvjitlink_stub.c — libnvJitLink.so.13 without nvJitLink, for Python GPU code on gpulab's driver.
 *
 * numba-cuda 0.30 and cuda.core 1.2 link a kernel with nvJitLink whenever a new enough one loads, and
 * nvJitLink's output is a SASS-only cubin, which a simulator cannot run.  Both judge nvJitLink by its
 * __nvJitLinkVersion symbol; a library of that soname without it is "too old (<12.3)" to them, so they
 * fall back to the driver's JIT linker (cuLinkCreate / cuLinkAddData(PTX) / cuLinkComplete), whose
 * "image" from gpulab's driver is the PTX itself, and Numba turns link-time optimisation off.
 * `gpulab profile` preloads this library (LD_PRELOAD) into Python programs only: a soname already
 * loaded wins over any nvJitLink a virtual environment installs.  It exports one symbol, which says
 * what it is. */
int gpulab_nvjitlink_stub(void);

__attribute__((visibility("default"))) int gpulab_nvjitlink_stub(void)
{
	return 0;
}
