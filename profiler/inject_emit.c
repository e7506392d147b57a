/* inject_emit.c — where a profiled launch's record goes: the spool `gpulab profile --backend cuda` names
 * in GPULAB_PROFILE_SPOOL (common/spool.h, the hand-off gpulab's driver library uses too), which the
 * parent stores as one run when the program has exited.  Without a spool (the library loaded by hand)
 * nothing is stored, and one line says so; GPULAB_PROFILE_LOG=1 adds a line per launch on stderr. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/numba_name.h"
#include "common/spool.h"
#include "profiler/inject.h"
#include "toolchain/toolchain.h"

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

/* The kernel as the launch table names it: the C++ signature, a Numba kernel's Python name, else the
 * symbol. */
static void kernel_text(const struct gl_inject_launch *l, char *out, size_t n)
{
	if (gl_numba_name(l->symbol, out, n))
		return;
	struct gl_demangled *d = gl_xcalloc(1, sizeof *d);
	snprintf(out, n, "%s", gl_demangle(l->symbol, d) == 0 ? d->signature : l->symbol);
	free(d);
}

static void to_spool(struct gl_inject *s, const char *dir, const struct gl_inject_launch *l,
		     struct gl_launch_record *rec)
{
	struct gl_spool_launch *out = gl_xcalloc(1, sizeof *out);
	struct gl_err err = {0};
	out->seq = l->seq;
	kernel_text(l, out->kernel, sizeof out->kernel);
	snprintf(out->gpu, sizeof out->gpu, "%.31s", s->c.info.name);
	out->estimate_us = NAN; /* the model's time is the simulator's; the GPU measured its own */
	out->error = l->error;
	out->rec = *rec; /* borrowed for the write */
	if (gl_spool_write(dir, out, &err) != GL_OK) {
		gl_inject_say("%s; later launches are not stored", err.msg);
		s->off = true;
	}
	free(out);
}

void gl_inject_emit(struct gl_inject *s, const struct gl_inject_launch *l, struct gl_launch_record *rec)
{
	const char *dir = getenv(GL_SPOOL_ENV);
	s->emitted++;
	if (s->opts.log)
		log_line(s, l, rec);
	if (dir && *dir)
		to_spool(s, dir, l, rec);
	else if (s->emitted == 1)
		gl_inject_say("%s is not set, so the profiled launches are not stored; run the program under "
			      "'gpulab profile --backend cuda' to store them", GL_SPOOL_ENV);
}
