/* sass_lookup.c — the SASS text embedded beside each topic's PTX (gen/sass_index.c, built by
 * CMakeLists.txt with ptxas -lineinfo and nvdisasm -gp), or why there is none. */
#include <string.h>

#include "kernels/registry.h"

const char *gl_topic_sass(const struct gl_topic *t, const char **why)
{
	for (const struct gl_sass_entry *e = gl_sass_table; e->topic; e++)
		if (strcmp(e->topic, t->name) == 0 && e->sass[0])
			return e->sass;
	*why = gl_sass_unavailable[0] ? gl_sass_unavailable : "no SASS was embedded for this topic";
	return NULL;
}
