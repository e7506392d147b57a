/* test_store_buffers.c — a launch's buffer map is stored with its trace and read back by the one call a
 * view makes (gl_store_load_traced_launch); a launch stored without one (before schema 3, or with no
 * trace) reads as having none; gl_store_find_run_launch finds a run's traced launch or says what is
 * missing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "store/store.h"

static void record(struct gl_launch_record *l, struct gl_trace_event *ev, struct gl_buffer_desc *map, int nmap)
{
	memset(l, 0, sizeof *l);
	snprintf(l->topic, sizeof l->topic, "sim");
	snprintf(l->variant, sizeof l->variant, "stride32");
	l->params_json = "{}";
	l->grid[0] = l->grid[1] = l->grid[2] = 1;
	l->block[0] = 32, l->block[1] = l->block[2] = 1;
	l->regs = l->static_smem = -1;
	l->verified = 1;
	l->duration_ns = NAN;
	snprintf(l->metric_source, sizeof l->metric_source, "sim");
	l->trace = ev;
	l->ntrace = ev ? 1 : 0;
	l->buffers = map;
	l->nbuffers = nmap;
}

int main(void)
{
	struct gl_store *s = NULL;
	struct gl_err err = {0};
	CHECK_EQ(gl_store_open(":memory:", 0, &s, &err), GL_OK);
	if (!s)
		return 1;
	struct gl_trace_event ev = {.space = GL_TRACE_GLOBAL, .op = GL_TRACE_LD, .bytes = 4, .mask = 1u,
				    .addr_base = 0x10000, .strided = true, .addr_stride = 4, .cost = 1};
	ev.addrs[0] = 0x10000;
	snprintf(ev.buffer, sizeof ev.buffer, "in");
	struct gl_buffer_desc map[2] = {
	    {.name = "in", .dtype = "f32", .base = 0x10000, .bytes = 4096, .elem = 4, .rows = 32, .cols = 32},
	    {.name = "tile", .dtype = "b32", .shared = 1, .base = 128, .bytes = 4224, .elem = 4, .rows = 32, .cols = 33},
	};
	struct gl_launch_record recs[3];
	record(&recs[0], NULL, NULL, 0); /* no trace: no map either */
	record(&recs[1], &ev, map, 2);
	record(&recs[2], &ev, NULL, 0);  /* as a launch stored before the map existed */
	long run = 0, ids[3] = {0};
	CHECK_EQ(gl_store_save_run(s, &(struct gl_run_info){.backend = "sim", .argv = "t"}, recs, 3, "ok", &run, ids,
				   &err),
		 GL_OK);
	long id = 0;
	CHECK_EQ(gl_store_find_run_launch(s, run, 0, &id, &err), GL_OK);
	CHECK_EQ(id, ids[1]); /* the first launch with a trace */
	struct gl_traced_launch t;
	CHECK_EQ(gl_store_load_traced_launch(s, ids[1], &t, &err), GL_OK);
	if (err.status)
		fprintf(stderr, "%s\n", err.msg);
	CHECK_EQ(t.n, 1);
	CHECK_EQ(t.nbuffers, 2);
	if (t.nbuffers == 2) {
		CHECK_STR(t.buffers[0].name, "in");
		CHECK_STR(t.buffers[0].dtype, "f32");
		CHECK_EQ(t.buffers[0].base, 0x10000);
		CHECK_EQ(t.buffers[0].bytes, 4096);
		CHECK_EQ(t.buffers[0].rows * t.buffers[0].cols, 1024);
		CHECK_EQ(t.buffers[0].shared, 0);
		CHECK_STR(t.buffers[1].name, "tile");
		CHECK_EQ(t.buffers[1].shared, 1);
		CHECK_EQ(t.buffers[1].base, 128);
		CHECK_EQ(t.buffers[1].cols, 33);
	}
	gl_traced_launch_free(&t);
	CHECK_EQ(gl_store_load_traced_launch(s, ids[2], &t, &err), GL_OK);
	CHECK_EQ(t.n, 1);
	CHECK_EQ(t.nbuffers, 0);
	gl_traced_launch_free(&t);
	CHECK_EQ(gl_store_find_run_launch(s, run, ids[2], &id, &err), GL_OK);
	CHECK_EQ(id, ids[2]);
	CHECK_EQ(gl_store_find_run_launch(s, run, 999, &id, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "has no launch 999") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(gl_store_find_run_launch(s, 42, 0, &id, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "no run 42") != NULL);
	gl_err_clear(&err);
	long untraced = 0;
	CHECK_EQ(gl_store_save_run(s, &(struct gl_run_info){.backend = "sim", .argv = "t"}, recs, 1, "ok", &untraced,
				   NULL, &err),
		 GL_OK);
	CHECK_EQ(gl_store_find_run_launch(s, untraced, 0, &id, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "has no trace") != NULL);
	gl_store_close(s);
	CHECK_DONE();
}
