/* inject_emit.c — where a profiled launch's record goes.  With GPULAB_PROFILE_LOG=1, one line on stderr
 * per launch (what was measured, for a person running the library by hand). */
#include <math.h>
#include <stdio.h>

#include "profiler/inject.h"

static void log_line(const struct gl_inject *s, const struct gl_inject_launch *l, const struct gl_launch_record *rec)
{
	char time[32] = "no time";
	if (!isnan(rec->duration_ns))
		snprintf(time, sizeof time, "%.3f us", rec->duration_ns / 1e3);
	gl_inject_say("launch %ld %s grid (%u,%u,%u) block (%u,%u,%u) shared %u+%d B, %d registers on %s: %zu "
		      "metric%s, %s; %s", l->seq, l->name, rec->grid[0], rec->grid[1], rec->grid[2], rec->block[0],
		      rec->block[1], rec->block[2], rec->dyn_smem, rec->static_smem, rec->regs,
		      s->c.info.name[0] ? s->c.info.name : "GPU 0", rec->metrics.n, rec->metrics.n == 1 ? "" : "s", time,
		      rec->note);
}

void gl_inject_emit(struct gl_inject *s, const struct gl_inject_launch *l, struct gl_launch_record *rec)
{
	s->emitted++;
	if (s->opts.log)
		log_line(s, l, rec);
}
