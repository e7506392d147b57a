/* sim_grid.c — one launch: checks the arguments against the entry's .params, lays buffers out like
 * cudaMalloc (256-byte aligned, with unmapped gaps so overruns are caught), runs the CTAs on a pool of
 * worker threads and merges their counts, findings, printf output and traces in grid order, so results
 * do not depend on the number of threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_trace.h"

#define BUFFER_GAP 0x10000ull /* unmapped bytes between buffers */
#define MAX_SHARED (227u * 1024u)

uint64_t gl_sim_buffer_address(const struct gl_launch *l, int i)
{
	uint64_t addr = GL_SIM_GLOBAL_BASE;
	for (int k = 0; k < i; k++) {
		uint64_t bytes = l->buffers[k].count * gl_dtype_size(l->buffers[k].dtype);
		addr += (bytes + 255) / 256 * 256 + BUFFER_GAP;
	}
	return addr;
}

/* What each finished CTA hands back; merged in grid order. */
struct cta_out {
	struct gl_sim_finding *findings;
	int nfindings;
	long findings_total, errors_total;
	char *printf_out;
	struct gl_trace_event *trace;
	uint32_t ntrace;
	uint64_t trace_dropped;
	bool aborted;
};

struct pool {
	struct sim_launch *L;
	long nrun;               /* CTAs to run (all, or the sample) */
	long total;              /* CTAs in the grid */
	atomic_long next, done;
	struct cta_out *out;     /* per run index */
	struct gl_sim_counters *worker_counts;
};

static int check_args(const struct ptx_function *fn, const struct gl_launch *l, struct gl_err *err)
{
	if (!fn->is_entry)
		return gl_errf(err, GL_EUSAGE, "'%s' is a .func, not a kernel (.entry)", fn->name);
	if (l->nargs != fn->nparams)
		return gl_errf(err, GL_EUSAGE, "kernel '%s' takes %d parameter%s but %d argument%s given", fn->name,
			       fn->nparams, fn->nparams == 1 ? "" : "s", l->nargs, l->nargs == 1 ? " was" : "s were");
	for (int i = 0; i < l->nargs; i++) {
		const struct ptx_param *p = &fn->params[i];
		const struct gl_arg *a = &l->args[i];
		if (!sim_span_in(p->offset, p->size, SIM_PARAM_BYTES)) /* .align can push a parameter past it */
			return gl_errf(err, GL_EUSAGE, "parameter %d '%s' of '%s' lies at bytes %u..%llu of the parameter "
				       "buffer, past its %u bytes (check the parameters' sizes and .align)", i + 1,
				       p->name, fn->name, p->offset, (unsigned long long)p->offset + p->size - 1,
				       SIM_PARAM_BYTES);
		if (a->kind == GL_ARG_BUFFER && p->size != 8)
			return gl_errf(err, GL_EUSAGE, "parameter %d '%s' of '%s' is a %u-byte value, not a pointer: "
				       "pass a scalar", i + 1, p->name, fn->name, p->size);
		if (a->kind == GL_ARG_SCALAR && a->size != p->size)
			return gl_errf(err, GL_EUSAGE, "parameter %d '%s' of '%s' takes %u bytes but the argument has %u",
				       i + 1, p->name, fn->name, p->size, a->size);
	}
	return GL_OK;
}

static int check_geometry(const struct ptx_function *fn, const struct gl_launch *l, struct gl_err *err)
{
	unsigned long threads = (unsigned long)l->block[0] * l->block[1] * l->block[2];
	if (!threads || threads > 1024 || l->block[2] > 64)
		return gl_errf(err, GL_EUSAGE, "block %ux%ux%u: a CTA has 1 to 1024 threads (z at most 64)",
			       l->block[0], l->block[1], l->block[2]);
	if (!l->grid[0] || !l->grid[1] || !l->grid[2] || l->grid[1] > 65535 || l->grid[2] > 65535)
		return gl_errf(err, GL_EUSAGE, "grid %ux%ux%u: each dimension must be positive (y and z at most 65535)",
			       l->grid[0], l->grid[1], l->grid[2]);
	double reg_bytes = (double)fn->nslots * 32 * 8 * ((threads + 31) / 32);
	if (reg_bytes > 1073741824.0) /* the simulator's register file of one CTA */
		return gl_errf(err, GL_EUSAGE, "kernel '%s' declares %d registers; one CTA of %lu threads would need "
			       "%.1f GiB of simulated registers", fn->name, fn->first_special, threads,
			       reg_bytes / 1073741824.0);
	if (fn->shared_static + l->dyn_smem > MAX_SHARED)
		return gl_errf(err, GL_EUSAGE, "kernel '%s' needs %llu bytes of static and %u of dynamic shared memory; "
			       "a CTA can have at most %u", fn->name, (unsigned long long)fn->shared_static,
			       l->dyn_smem, MAX_SHARED);
	return GL_OK;
}

static void setup_memory(struct sim_launch *L, struct gl_launch *l)
{
	for (int i = 0; i < l->nbuffers; i++) {
		struct gl_buffer *b = &l->buffers[i];
		b->device_addr = gl_sim_buffer_address(l, i);
		L->regions[L->nregions++] = (struct sim_region){
			b->device_addr, b->count * gl_dtype_size(b->dtype), b->host, b->name};
	}
	const struct ptx_module *m = L->m;
	if (m->global_size) { /* module-scope .global/.const data, with initializers */
		uint8_t *data = gl_xcalloc(m->global_size, 1);
		for (int i = 0; i < m->nvars; i++)
			if (m->vars[i].init && m->vars[i].space != PS_SHARED)
				memcpy(data + m->vars[i].offset, m->vars[i].init, m->vars[i].size);
		L->regions[L->nregions++] = (struct sim_region){PTX_MODULE_BASE, m->global_size, data, "module globals"};
	}
	for (int i = 0; i < l->nargs; i++) {
		const struct gl_arg *a = &l->args[i];
		uint64_t v = a->kind == GL_ARG_BUFFER ? l->buffers[a->buffer].device_addr : a->bits;
		memcpy(L->params + L->fn->params[i].offset, &v, a->kind == GL_ARG_BUFFER ? 8 : a->size);
	}
	const struct ptx_function *fn = L->fn;
	L->konst = gl_xmalloc((size_t)(fn->nconsts ? fn->nconsts : 1) * 32 * sizeof *L->konst);
	for (int i = 0; i < fn->nconsts; i++)
		for (int k = 0; k < 32; k++)
			L->konst[(size_t)i * 32 + k] = fn->consts[i];
}

static void cta_alloc(struct sim_cta *cta, struct sim_launch *L, uint32_t trace_cap)
{
	memset(cta, 0, sizeof *cta);
	cta->L = L;
	cta->shared = gl_xmalloc(L->shared_size ? L->shared_size : 1);
	cta->shadow = gl_xcalloc(L->shared_size / 4 + 1, sizeof *cta->shadow); /* one per 4-byte word */
	cta->local = gl_xmalloc((size_t)L->threads_per_cta * (L->fn->local_size ? L->fn->local_size : 1));
	cta->warps = gl_xcalloc(L->warps_per_cta, sizeof *cta->warps);
	cta->regs = gl_xmalloc((size_t)L->fn->nslots * 32 * L->warps_per_cta * sizeof *cta->regs);
	cta->trace_cap = trace_cap;
}

static void cta_release(struct sim_cta *cta)
{
	free(cta->shared);
	free(cta->shadow);
	sim_race_free(&cta->race);
	free(cta->local);
	free(cta->warps);
	free(cta->regs);
}

/* The grid index of the k-th CTA run: all of them, or nrun spread evenly over the grid. */
static long cta_index(const struct pool *p, long k)
{
	return p->nrun == p->total ? k : (long)((double)k * (double)p->total / (double)p->nrun);
}

static void run_one(struct pool *p, struct sim_cta *cta, long k)
{
	struct sim_launch *L = p->L;
	long idx = cta_index(p, k);
	cta->linear = (unsigned)idx;
	cta->ctaid[0] = (unsigned)(idx % L->grid[0]);
	cta->ctaid[1] = (unsigned)(idx / L->grid[0] % L->grid[1]);
	cta->ctaid[2] = (unsigned)(idx / ((long)L->grid[0] * L->grid[1]));
	cta->nfindings = 0;
	cta->findings_total = cta->errors_total = 0;
	cta->aborted = false;
	struct gl_str text = {0};
	cta->printf_out = &text;
	bool traced = L->opts->trace && (unsigned)k < L->trace_ctas;
	struct gl_trace_event *trace = traced ? gl_xmalloc(cta->trace_cap * sizeof *trace) : NULL;
	cta->trace = trace;
	cta->ntrace = 0;
	cta->trace_dropped = 0;
	cta->trace_seq = 0;
	sim_cta_run(cta);
	struct cta_out *o = &p->out[k];
	o->aborted = cta->aborted;
	o->findings_total = cta->findings_total;
	o->errors_total = cta->errors_total;
	if (cta->nfindings) {
		o->findings = gl_xmalloc((size_t)cta->nfindings * sizeof *o->findings);
		memcpy(o->findings, cta->findings, (size_t)cta->nfindings * sizeof *o->findings);
		o->nfindings = cta->nfindings;
	}
	o->printf_out = text.buf;
	o->trace = trace;
	o->ntrace = cta->ntrace;
	o->trace_dropped = cta->trace_dropped;
	cta->trace = NULL;
}

struct worker_arg {
	struct pool *p;
	int id;
};

static void *worker(void *arg)
{
	struct worker_arg *wa = arg;
	struct pool *p = wa->p;
	struct sim_cta cta;
	cta_alloc(&cta, p->L, p->L->opts->trace_limit ? p->L->opts->trace_limit : GL_SIM_TRACE_LIMIT);
	for (;;) {
		long k = atomic_fetch_add(&p->next, 1);
		if (k >= p->nrun || atomic_load(&p->L->stop))
			break;
		run_one(p, &cta, k);
		atomic_fetch_add(&p->done, 1);
	}
	p->worker_counts[wa->id] = cta.c;
	cta_release(&cta);
	return NULL;
}

static void add_counts(struct gl_sim_counters *into, const struct gl_sim_counters *c)
{
	uint64_t *a = (uint64_t *)into;
	const uint64_t *b = (const uint64_t *)c;
	for (size_t i = 0; i < sizeof *c / sizeof(uint64_t); i++)
		a[i] += b[i];
}

static void progress(const struct pool *p, double start, bool *shown)
{
	double t = gl_now() - start;
	if (t < 1.0)
		return;
	long done = atomic_load(&p->done);
	int width = 30, filled = (int)((double)width * (double)done / (double)p->nrun);
	fprintf(stderr, "\rsimulating [%.*s%*s] %ld/%ld CTAs %.1fs", filled, "##############################",
		width - filled, "", done, p->nrun, t);
	*shown = true;
}

static void run_pool(struct pool *p, int threads, bool show_progress)
{
	pthread_t tids[256];
	struct worker_arg args[256];
	p->worker_counts = gl_xcalloc((size_t)threads, sizeof *p->worker_counts);
	int started = 0;
	for (int i = 0; i < threads; i++) {
		args[i] = (struct worker_arg){p, i};
		if (pthread_create(&tids[i], NULL, worker, &args[i]) == 0)
			started++;
		else
			break;
	}
	if (!started) /* no threads to be had: run on this one */
		worker(&args[0]);
	double start = gl_now();
	bool shown = false;
	while (show_progress && atomic_load(&p->done) < p->nrun && !atomic_load(&p->L->stop) &&
	       atomic_load(&p->next) <= p->nrun) {
		usleep(100000);
		progress(p, start, &shown);
	}
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	if (shown)
		fprintf(stderr, "\r%*s\r", 70, "");
}

static void merge(struct pool *p, struct gl_sim_result *res, int threads)
{
	for (int i = 0; i < threads; i++)
		add_counts(&res->c, &p->worker_counts[i]);
	struct gl_str text = {0};
	for (long k = 0; k < p->nrun; k++) {
		struct cta_out *o = &p->out[k];
		res->aborted |= o->aborted;
		res->findings_total += o->findings_total;
		res->nerrors += (int)o->errors_total;
		for (int i = 0; i < o->nfindings && res->nfindings < SIM_FINDINGS_MAX; i++) {
			res->findings = gl_xrealloc(res->findings, (size_t)(res->nfindings + 1) * sizeof *res->findings);
			res->findings[res->nfindings++] = o->findings[i];
		}
		if (o->printf_out)
			gl_str_add(&text, o->printf_out);
		if (o->ntrace) {
			res->trace = gl_xrealloc(res->trace, (size_t)(res->ntrace + o->ntrace) * sizeof *res->trace);
			memcpy(res->trace + res->ntrace, o->trace, (size_t)o->ntrace * sizeof *o->trace);
			res->ntrace += o->ntrace;
		}
		res->trace_dropped += o->trace_dropped;
		free(o->findings);
		free(o->printf_out);
		free(o->trace);
	}
	res->printf_out = text.buf ? text.buf : gl_xstrdup("");
}

static int pick_threads(const struct gl_sim_opts *opts, long nrun)
{
	long n = opts->threads > 0 ? opts->threads : sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (n > 256)
		n = 256;
	return (int)(n < nrun ? n : nrun);
}

int gl_sim_run(const struct ptx_module *m, struct gl_launch *l, const struct gl_sim_opts *opts,
	       struct gl_sim_result *res, struct gl_err *err)
{
	memset(res, 0, sizeof *res);
	const struct ptx_function *fn = ptx_find_function(m, l->entry);
	if (!fn || !fn->code)
		return gl_errf(err, GL_EUSAGE, "no kernel named '%s' in %s", l->entry, m->name);
	int rc = check_args(fn, l, err);
	if (!rc)
		rc = check_geometry(fn, l, err);
	if (rc)
		return rc;
	struct sim_launch *L = gl_xcalloc(1, sizeof *L);
	L->m = m;
	L->fn = fn;
	L->opts = opts;
	memcpy(L->grid, l->grid, sizeof L->grid);
	memcpy(L->block, l->block, sizeof L->block);
	L->threads_per_cta = l->block[0] * l->block[1] * l->block[2];
	L->warps_per_cta = (L->threads_per_cta + 31) / 32;
	L->dyn_smem = l->dyn_smem;
	L->shared_size = fn->shared_static + l->dyn_smem;
	L->budget = opts->max_instructions ? opts->max_instructions : GL_SIM_DEFAULT_BUDGET;
	L->trace_ctas = opts->trace_ctas ? opts->trace_ctas : GL_SIM_TRACE_CTAS;
	setup_memory(L, l);
	L->specials = gl_xmalloc((size_t)L->warps_per_cta * SR_COUNT * 32 * sizeof *L->specials);
	sim_specials_template(L, L->specials);

	struct pool p = {.L = L};
	p.total = (long)l->grid[0] * l->grid[1] * l->grid[2];
	p.nrun = opts->sample_ctas > 0 && opts->sample_ctas < p.total ? opts->sample_ctas : p.total;
	p.out = gl_xcalloc((size_t)p.nrun, sizeof *p.out);
	int threads = pick_threads(opts, p.nrun);
	double t0 = gl_now();
	run_pool(&p, threads, opts->progress);
	res->wall_seconds = gl_now() - t0;
	res->threads = threads;
	res->ctas_total = p.total;
	res->ctas_run = p.nrun;
	res->scale = (double)p.total / (double)p.nrun;
	merge(&p, res, threads);
	if (m->global_size)
		free(L->regions[L->nregions - 1].host);
	free(p.out);
	free(p.worker_counts);
	free(L->konst);
	free(L->specials);
	free(L);
	return GL_OK;
}

void gl_sim_result_free(struct gl_sim_result *res)
{
	free(res->findings);
	free(res->printf_out);
	free(res->trace);
	memset(res, 0, sizeof *res);
}
