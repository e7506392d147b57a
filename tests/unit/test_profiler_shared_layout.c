/* test_profiler_shared_layout.c — every embedded kernel's static shared memory as the simulator lays it
 * out equals what ptxas -v reported for it at build time (sm_80): each kernel gets the module-scope
 * .shared variables it references, after its own, as ptxas lays them out. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "kernels/registry.h"
#include "sim/ptx.h"

int main(void)
{
	int checked = 0;
	for (int t = 0; gl_topics[t]; t++) {
		const struct gl_topic *topic = gl_topics[t];
		struct ptx_module *m = NULL;
		struct gl_err err = {0};
		CHECK_EQ(ptx_parse(topic->ptx, topic->name, &m, &err), GL_OK);
		if (!m)
			continue;
		for (int f = 0; f < m->nfuncs; f++) {
			const struct ptx_function *fn = &m->funcs[f];
			if (!fn->is_entry)
				continue;
			struct gl_resources r;
			gl_topic_resources(topic, fn->name, "sm_80", &r);
			if (r.static_smem < 0)
				continue;
			if ((long)fn->shared_static != r.static_smem)
				fprintf(stderr, "%s %s: simulator %llu bytes of static shared memory, ptxas %d\n", topic->name,
					fn->name, (unsigned long long)fn->shared_static, r.static_smem);
			CHECK_EQ((long)fn->shared_static, r.static_smem);
			checked++;
		}
		ptx_module_free(m);
	}
	CHECK(checked > 40); /* every topic's kernels */
	CHECK_DONE();
}
