/* sass_cache.c — ptxas and nvdisasm once: the SASS text `gpulab sim` gets for a PTX file is kept under
 * $XDG_CACHE_HOME/gpulab/sass (~/.cache/gpulab/sass), so running the same PTX again skips both tools
 * (their run is most of a small launch's time: 0.4 s for a small kernel, seconds for a module of many).
 * The key (sass.c) hashes everything the text depends on: the PTX bytes, each tool's path and
 * `--version` text, the target and the flags.  The entries, their checks and the folder's rules are
 * common/keyed_cache.h's, shared with the driver library's ptxas reports. */
#include "common/keyed_cache.h"
#include "toolchain/toolchain.h"

static const struct gl_keyed_cache sass_cache = {"sass", "sass", "gpulab-sass 1", "SASS cache"};

char *gl_sasscache_load(const char *key, bool verbose)
{
	return gl_keyed_cache_load(&sass_cache, key, verbose);
}

void gl_sasscache_store(const char *key, const char *text, bool verbose)
{
	gl_keyed_cache_store(&sass_cache, key, text, verbose);
}
