/* ptxas.c — the usage lines of `ptxas -v` for one entry (ptxas.h). */
#include "ptxas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gl_ptxas_usage(const char *text, const char *entry, struct gl_ptxas_usage *out)
{
	*out = (struct gl_ptxas_usage){-1, -1, -1, -1, -1};
	char key[300];
	snprintf(key, sizeof key, "entry function '%s'", entry);
	const char *p = text ? strstr(text, key) : NULL;
	if (!p)
		return;
	const char *next = strstr(p + 1, "Compiling entry function");
	const char *frame = strstr(p, "bytes stack frame");
	if (frame && (!next || frame < next)) {
		const char *line = frame;
		while (line > p && line[-1] != '\n')
			line--;
		sscanf(line, " %d bytes stack frame, %d bytes spill stores, %d bytes spill loads", &out->stack,
		       &out->spill_stores, &out->spill_loads);
	}
	const char *used = strstr(p, "Used ");
	if (used && (!next || used < next)) {
		sscanf(used, "Used %d registers", &out->regs);
		const char *smem = strstr(used, "bytes smem");
		const char *eol = strchr(used, '\n');
		out->static_smem = 0;
		if (smem && (!eol || smem < eol)) {
			const char *num = smem - 1;
			while (num > used && num[-1] != ' ' && num[-1] != ',')
				num--;
			while (num > used && num[-1] == ' ')
				num--;
			while (num > used && num[-1] >= '0' && num[-1] <= '9')
				num--;
			out->static_smem = atoi(num);
		}
	}
}
