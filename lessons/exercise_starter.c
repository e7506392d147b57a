/* exercise_starter.c — the file `gpulab exercise start` writes: the task as a comment (with the sizes it
 * is checked at and its goals), the exact signature, and a body to fill in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "lessons/exercise.h"

/* The Markdown task as comment lines (no "*" + "/" inside a comment). */
static void task_comment(struct gl_str *s, const char *task)
{
	const char *p = task;
	while (*p == '\n')
		p++;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		gl_str_addf(s, "//%s%.*s\n", n ? " " : "", (int)n, p);
		p += n + (nl != NULL);
	}
}

char *exercise_starter(const struct exercise *e)
{
	struct gl_str s = {0};
	char sig[512], size[96];
	gl_str_addf(&s, "// %s — gpulab exercise %s\n//\n", e->title, e->name);
	task_comment(&s, e->task);
	gl_str_addf(&s, "//\n// Launch: grid (%s, %s, %s), block (%s, %s, %s)", e->grid[0], e->grid[1], e->grid[2],
		    e->block[0], e->block[1], e->block[2]);
	if (strcmp(e->smem, "0"))
		gl_str_addf(&s, ", %s bytes of dynamic shared memory", e->smem);
	gl_str_addf(&s, ".\n// Checked at:");
	for (int i = 0; i < e->nsizes; i++) {
		exercise_size_str(e, &e->sizes[i], size, sizeof size);
		gl_str_addf(&s, "%s %s", i ? ";" : "", size);
	}
	exercise_size_str(e, &e->measure, size, sizeof size);
	gl_str_addf(&s, ".\n// Goals, measured at %s:\n", size);
	for (int i = 0; i < e->ngoals; i++)
		gl_str_addf(&s, "//   %s\n", e->goals[i].check.text);
	if (!e->ngoals)
		gl_str_addf(&s, "//   (none: correctness only)\n");
	gl_str_addf(&s, "//\n// Check it:  gpulab exercise check %s\n// Stuck?     gpulab exercise hint %s\n\n",
		    e->name, e->name);
	exercise_signature(e, sig, sizeof sig);
	bool half = false;
	for (int i = 0; i < e->nparams; i++)
		half |= e->params[i].dtype == GL_F16;
	gl_str_addf(&s, "%s%s\n{\n\t// TODO: your kernel here\n}\n", half ? "#include <cuda_fp16.h>\n\n" : "", sig);
	return s.buf;
}
