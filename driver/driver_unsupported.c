/* driver_unsupported.c — every driver entry point of the toolkit (driver_entries.h), as a weak function
 * that returns CUDA_ERROR_NOT_SUPPORTED and names itself once on stderr.  The library's own files define
 * the entry points gpulab implements; at link time those strong definitions replace the weak ones, so
 * the table below (and dlsym) reaches an implementation where there is one and a stub everywhere else:
 * a program never calls a missing symbol, and never crashes on one.  This file does not include cuda.h,
 * whose prototypes the stubs' uniform signature would contradict. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "driver_entry.h"

#define NOT_SUPPORTED 801 /* CUDA_ERROR_NOT_SUPPORTED (driver_errors.c checks the value against cuda.h) */

static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *said[512];
static int nsaid;

void drv_say_unsupported(const char *name)
{
	pthread_mutex_lock(&said_lock);
	bool again = false;
	for (int i = 0; i < nsaid && !again; i++)
		again = strcmp(said[i], name) == 0;
	if (!again && nsaid < 512)
		said[nsaid++] = name;
	pthread_mutex_unlock(&said_lock);
	if (!again)
		fprintf(stderr, "gpulab driver: %s is not supported by gpulab's driver library: it returns "
			"CUDA_ERROR_NOT_SUPPORTED (operation not supported)\n", name);
}

/* Each stub is a static function, and the exported name a weak alias of it: an implementation elsewhere
 * replaces the alias, and the table can still tell the two apart. */
#define STUB(symbol)                                                                                       \
	static int stub_##symbol(void)                                                                     \
	{                                                                                                  \
		drv_say_unsupported(#symbol);                                                              \
		return NOT_SUPPORTED;                                                                      \
	}                                                                                                  \
	extern __typeof__(stub_##symbol) symbol __attribute__((weak, alias("stub_" #symbol)));
#define S(symbol) STUB(symbol)
#include "driver_entries.h"

/* A per-thread form reaches the legacy implementation: every stream operation runs at issue here, so
 * the two differ in nothing but the stream NULL names, which is the context's one default stream in both. */
const struct drv_entry drv_entries[] = {
#define E(name, version, symbol) {#name, version, 0, #symbol, (void *)symbol, (void *)stub_##symbol},
#define P(name, version, symbol, legacy) {#name, version, 1, #symbol, (void *)legacy, (void *)stub_##legacy},
#include "driver_entries.h"
};
const int drv_nentries = sizeof drv_entries / sizeof drv_entries[0];
