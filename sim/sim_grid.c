/* sim_grid.c — one launch: checks the arguments against the entry's .params, lays buffers out like
 * cudaMalloc (256-byte aligned, with unmapped gaps so overruns are caught), runs the CTAs on a pool of
 * worker threads and merges their counts, findings, printf output and traces in grid order, so results
 * do not depend on the number of threads. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/texture.h"
#include "sim_printf.h"
#include "sim_jit.h"
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
	struct gl_sim_counters c;
	struct gl_findings findings; /* the CTA's, without its index */
	struct sim_printf_fifo pf;
	struct gl_trace_event *trace;
	uint32_t ntrace;
	uint64_t trace_dropped;
	bool aborted;
	uint64_t executed;       /* warp instructions, for the launch's budget */
	int budget_line;         /* the PTX line it was last checked at */
	struct gl_sim_fault fault; /* the access that stopped it, if one did */
	bool compiled;           /* the compiled engine ran it */
	uint64_t full_thread_inst; /* thread-instructions the interpreter ran in full warps (auto's measure) */
	bool ready;              /* finished, waiting to be merged */
};

/* CTAs are handed out in grid order and merged in grid order through a window of `window` slots: a
 * worker takes CTA k only when k < merged + window, so memory stays bounded for any grid.  The worker
 * that finishes the CTA next in order merges it and every later one already finished (merge_ready), so
 * no thread is woken per CTA: grids of many small CTAs (the 4096x4096 transpose has 16384) would
 * otherwise spend their time in hand-offs. */
struct pool {
	struct sim_launch *L;
	long nrun;               /* CTAs to run (all, the sample, or the range) */
	long first;              /* with a CTA range: its first CTA, and nrun its length */
	bool ranged;
	long total;              /* CTAs in the grid */
	long window;
	struct cta_out *slots;   /* CTA k in slots[k % window] */
	pthread_mutex_t mu;
	pthread_cond_t can_take, ready;
	long next, merged;       /* under mu */
	uint64_t executed;       /* warp instructions of the CTAs merged (by the one merging) */
	bool merging;            /* a worker is merging (merge_ready), under mu */
	struct gl_sim_result *res; /* what merging adds to */
	struct sim_printf_fifo *pf;
	atomic_size_t printf_used; /* bytes of printf text merged so far */
	int workers;             /* still running, under mu */
	int failed;              /* a worker could not allocate its CTA state */
	struct gl_findings findings; /* of the CTAs merged so far (common/findings.h) */
	int threads;             /* workers asked for (1 when the CTAs run on the calling thread) */
	/* The engine: CTAs taken run on `jit` (under mu) when it is set, on the interpreter otherwise.  With
	 * --engine auto (`measure`), the first CTA run decides for the CTAs taken after it finished
	 * (measured(), sim_jit_auto), while the other workers go on interpreting. */
	struct sim_jit *jit;
	bool measure;
	char auto_note[320];     /* what auto decided, when it chose or tried the compiled engine */
};

static int check_args(const struct ptx_function *fn, const struct gl_launch *l, const struct gl_sim_opts *opts,
		      struct gl_err *err)
{
	if (!fn->is_entry)
		return gl_errf(err, GL_EUSAGE, "'%s' is a .func, not a kernel (.entry)", fn->name);
	if (opts->memory) /* the caller laid the parameter buffer out from the .param list */
		return opts->memory->params_size <= SIM_PARAM_BYTES ? GL_OK
			: gl_errf(err, GL_EUSAGE, "kernel '%s' takes %zu bytes of parameters; the simulator holds at "
				  "most %u", fn->name, opts->memory->params_size, SIM_PARAM_BYTES);
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
			       "%.1f GiB of simulated registers", fn->name, fn->declared_regs, threads,
			       reg_bytes / 1073741824.0);
	if (fn->shared_static + l->dyn_smem > MAX_SHARED)
		return gl_errf(err, GL_EUSAGE, "kernel '%s' needs %llu bytes of static and %u of dynamic shared memory; "
			       "a CTA can have at most %u", fn->name, (unsigned long long)fn->shared_static,
			       l->dyn_smem, MAX_SHARED);
	return GL_OK;
}

/* The caller's memory (gl_sim_memory): its regions where it put them, its parameter buffer. */
static void setup_caller_memory(struct sim_launch *L, const struct gl_sim_memory *mem)
{
	L->regions = gl_xmalloc((size_t)(mem->nregions + 1) * sizeof *L->regions);
	for (int i = 0; i < mem->nregions; i++) {
		const struct gl_sim_region *r = &mem->regions[i];
		L->regions[L->nregions++] = (struct sim_region){r->base, r->size, r->host, r->name};
	}
	L->owned_from = L->nregions;
	memcpy(L->params, mem->params, mem->params_size);
}

static void setup_memory(struct sim_launch *L, struct gl_launch *l)
{
	const struct ptx_module *m = L->m;
	if (L->opts->memory) {
		setup_caller_memory(L, L->opts->memory);
	} else {
		L->regions = gl_xmalloc((size_t)(l->nbuffers + 2) * sizeof *L->regions);
		for (int i = 0; i < l->nbuffers; i++) {
			struct gl_buffer *b = &l->buffers[i];
			b->device_addr = gl_sim_buffer_address(l, i);
			L->regions[L->nregions++] = (struct sim_region){
				b->device_addr, b->count * gl_dtype_size(b->dtype), b->host, b->name};
		}
		L->owned_from = L->nregions;
	}
	if (m->global_size && !L->opts->memory) { /* module-scope .global/.const data, with initializers */
		uint8_t *data = gl_xcalloc(m->global_size, 1);
		for (int i = 0; i < m->nvars; i++)
			if (m->vars[i].init && m->vars[i].space != PS_SHARED)
				memcpy(data + m->vars[i].offset, m->vars[i].init, m->vars[i].size);
		L->regions[L->nregions++] = (struct sim_region){m->global_base, m->global_size, data, "module globals"};
	}
	if (L->cooperative) { /* the grid workspace: grid.sync()'s barrier word, zero at launch */
		L->grid_ws = SIM_GRID_WS_BASE;
		L->regions[L->nregions++] = (struct sim_region){SIM_GRID_WS_BASE, SIM_GRID_WS_SIZE,
								gl_xcalloc(SIM_GRID_WS_SIZE, 1), "grid workspace"};
	}
	for (int i = 0; i < l->nargs && !L->opts->memory; i++) {
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

static bool is_builtin_call(const struct ptx_module *m, const struct ptx_operand *target)
{
	return m->funcs[target->offset].builtin != PTX_BUILTIN_NONE;
}

/* Whether the kernel reaches a call to a .func body (directly, through other functions, or through a
 * function pointer); marks reached functions in `seen`. */
static bool reaches_calls(const struct sim_launch *L, int fi, bool *seen)
{
	const struct ptx_module *m = L->m;
	seen[fi] = true;
	const struct ptx_function *f = &m->funcs[fi];
	bool calls = false;
	for (int i = 0; i < f->ncode; i++) {
		const struct ptx_insn *ins = &f->code[i];
		if (ins->op != OP_CALL)
			continue;
		const struct ptx_operand *t = NULL;
		for (int k = 0; k < ins->nops && !t; k++)
			if (ins->ops[k].kind == PO_FUNC || ins->ops[k].kind == PO_SLOT)
				t = &ins->ops[k];
		if (!t || t->kind == PO_SLOT) {
			calls = true;
			continue;
		}
		if (is_builtin_call(m, t))
			continue;
		calls = true;
		int d = L->definition[t->offset];
		if (d >= 0 && !seen[d])
			reaches_calls(L, d, seen);
	}
	return calls;
}

/* The special registers f reads (bit sr for enum ptx_special sr), in any operand that names a slot. */
static uint32_t specials_read(const struct ptx_function *f)
{
	uint32_t read = 0;
	for (int i = 0; i < f->ncode; i++)
		for (int k = 0; k < f->code[i].nops; k++) {
			const struct ptx_operand *o = &f->code[i].ops[k];
			int n = o->kind == PO_VEC ? o->nvec : o->kind == PO_SLOT || o->kind == PO_MEM ? 1 : 0;
			for (int e = 0; e < n; e++) {
				int sr = (o->kind == PO_VEC ? o->vec[e] : o->slot) - f->first_special;
				if (sr >= 0 && sr < SR_COUNT)
					read |= 1u << sr;
			}
		}
	return read;
}

#define SPECIAL_BITS(first, last) ((uint32_t)((2ull << (last)) - (1ull << (first))))

/* Calls to .func bodies (sim_frame.c): each function's definition, the call stack and its size. */
static void setup_calls(struct sim_launch *L)
{
	const struct ptx_module *m = L->m;
	L->definition = gl_xmalloc((size_t)(m->nfuncs ? m->nfuncs : 1) * sizeof *L->definition);
	for (int i = 0; i < m->nfuncs; i++) {
		const struct ptx_function *d = ptx_find_function(m, m->funcs[i].name);
		L->definition[i] = d ? (int)(d - m->funcs) : -1;
		/* the frames hold the .funcs a call runs: never a kernel, whose slots another launch may be sharing */
		if (!m->funcs[i].is_entry && m->funcs[i].code && m->funcs[i].nslots > L->max_slots)
			L->max_slots = m->funcs[i].nslots;
	}
	bool *seen = gl_xcalloc((size_t)m->nfuncs + 1, sizeof *seen);
	L->calls = reaches_calls(L, (int)(L->fn - m->funcs), seen);
	for (int i = 0; i < m->nfuncs; i++)
		if (seen[i])
			L->specials_read |= specials_read(&m->funcs[i]);
	/* %envreg1/%envreg2 hold a cooperative launch's grid workspace (what cooperative_groups::this_grid()
	 * compiles to) */
	L->cooperative |= (L->specials_read & SPECIAL_BITS(SR_ENVREG1, SR_ENVREG2)) != 0;
	L->reserved_used |= (L->specials_read & SPECIAL_BITS(SR_RSMEM_BEGIN, SR_RSMEM_1)) != 0;
	free(seen);
	L->stack_size = L->opts->stack_size ? L->opts->stack_size : GL_SIM_STACK_SIZE;
	L->stack_base = (L->fn->local_size + 15) & ~(uint64_t)15;
	L->local_per_thread = L->fn->local_size;
	L->frame_size = gl_xcalloc((size_t)m->nfuncs + 1, sizeof *L->frame_size);
	L->stack_cost = gl_xcalloc((size_t)m->nfuncs + 1, sizeof *L->stack_cost);
	uint64_t extra = 0; /* the most frame bytes beyond what a call charges to the stack */
	for (int i = 0; i < m->nfuncs; i++) {
		const struct ptx_function *f = &m->funcs[i];
		uint64_t vars = 0;
		for (int k = 0; k < f->nvars; k++)
			if (f->vars[k].space == PS_LOCAL && !f->vars[k].call_param)
				vars = (vars + f->vars[k].align - 1) / f->vars[k].align * f->vars[k].align + f->vars[k].size;
		L->frame_size[i] = (uint32_t)((f->local_size + 15) & ~(uint64_t)15);
		L->stack_cost[i] = (uint32_t)(((vars + 15) & ~(uint64_t)15) + SIM_CALL_OVERHEAD);
		if (L->frame_size[i] + SIM_CALL_OVERHEAD > L->stack_cost[i] &&
		    L->frame_size[i] + SIM_CALL_OVERHEAD - L->stack_cost[i] > extra)
			extra = L->frame_size[i] + SIM_CALL_OVERHEAD - L->stack_cost[i];
	}
	/* every call charges at least SIM_CALL_OVERHEAD, so no stack holds more than this many frames */
	if (L->calls)
		L->local_per_thread = L->stack_base + L->stack_size + L->stack_size / SIM_CALL_OVERHEAD * extra;
}

/* One worker's CTA state; GL_EENV when the host has no memory for it. */
static int cta_alloc(struct sim_cta *cta, struct sim_launch *L, uint32_t trace_cap)
{
	memset(cta, 0, sizeof *cta);
	cta->L = L;
	cta->shared = malloc(L->shared_size ? L->shared_size : 1);
	cta->shadow = calloc(L->shared_size / 4 + 1, sizeof *cta->shadow); /* one per 4-byte word */
	cta->shadow_site = calloc(2 * (L->shared_size / 4 + 1), sizeof *cta->shadow_site);
	cta->quiet.site = calloc(L->warps_per_cta, sizeof *cta->quiet.site);
	cta->quiet.full = calloc(SIM_QUIET_ROWS(L), sizeof *cta->quiet.full);
	cta->shapes = calloc(SIM_SHAPE_SLOTS, sizeof *cta->shapes);
	cta->quiet.reads = calloc(SIM_QUIET_ROWS(L) * L->warps_per_cta, sizeof *cta->quiet.reads);
	cta->local = malloc((size_t)L->threads_per_cta * (L->local_per_thread ? L->local_per_thread : 1));
	cta->warps = calloc(L->warps_per_cta, sizeof *cta->warps);
	cta->regs = malloc((size_t)L->fn->nslots * 32 * L->warps_per_cta * sizeof *cta->regs);
	cta->sass_phase = L->sass_phases ? calloc((size_t)L->fn->ncode * L->warps_per_cta, 1) : NULL;
	cta->spots = L->spots ? calloc((size_t)L->fn->ncode * SIM_SPOT_KINDS, sizeof *cta->spots) : NULL;
	cta->trace_cap = trace_cap;
	gl_findings_init(&cta->findings, SIM_FINDINGS_PER_CTA);
	bool ok = cta->shared && cta->shadow && cta->shadow_site && cta->quiet.site && cta->quiet.full && cta->quiet.reads && cta->shapes && cta->local &&
		  cta->warps && cta->regs && (cta->sass_phase || !L->sass_phases);
	return ok ? GL_OK : GL_EENV;
}

static void cta_release(struct sim_cta *cta)
{
	free(cta->shared);
	free(cta->shadow);
	free(cta->shadow_site);
	free(cta->quiet.site);
	free(cta->quiet.full);
	free(cta->quiet.reads);
	free(cta->shapes);
	sim_race_free(&cta->race);
	sim_async_free(cta);
	sim_l1_free(cta);
	sim_spots_flush(cta);
	sim_frame_release(cta);
	free(cta->local);
	free(cta->warps);
	free(cta->regs);
	gl_findings_free(&cta->findings);
	free(cta->sass_phase);
}

/* The grid index of the k-th CTA run: all of them, those of the range, or nrun spread evenly over the grid. */
static long cta_index(const struct pool *p, long k)
{
	if (p->ranged)
		return p->first + k;
	return p->nrun == p->total ? k : (long)((double)k * (double)p->total / (double)p->nrun);
}

/* Set up the k-th CTA to run into `o`. */
static void prepare_one(struct pool *p, struct sim_cta *cta, long k, struct cta_out *o)
{
	struct sim_launch *L = p->L;
	long idx = cta_index(p, k);
	cta->linear = (unsigned)idx;
	cta->run_index = k;
	cta->ctaid[0] = (unsigned)(idx % L->grid[0]);
	cta->ctaid[1] = (unsigned)(idx / L->grid[0] % L->grid[1]);
	cta->ctaid[2] = (unsigned)(idx / ((long)L->grid[0] * L->grid[1]));
	gl_findings_clear(&cta->findings);
	cta->aborted = false;
	cta->fault = (struct gl_sim_fault){0};
	memset(&cta->c, 0, sizeof cta->c);
	cta->full_warp_inst = 0;
	memset(o, 0, sizeof *o);
	/* What the merged CTAs left of the buffer bounds this CTA's records: a record that does not fit here
	 * cannot fit when it is merged either, so formatting stops early once the buffer is full. */
	o->pf.size = L->printf_buffer - atomic_load(&p->printf_used);
	cta->pf = &o->pf;
	bool traced = L->opts->trace && (unsigned)k < L->trace_ctas;
	struct gl_trace_event *trace = traced ? gl_xmalloc(cta->trace_cap * sizeof *trace) : NULL;
	cta->trace = trace;
	cta->ntrace = 0;
	cta->trace_dropped = 0;
	cta->trace_seq = 0;
}

/* Hand what the k-th CTA did over to `o`. */
static void finish_one(struct pool *p, struct sim_cta *cta, long k, struct cta_out *o)
{
	struct sim_launch *L = p->L;
	if (cta->aborted) { /* the launch stops at the first aborted CTA in grid order */
		long cur = atomic_load(&L->stop_at);
		while (k < cur && !atomic_compare_exchange_weak(&L->stop_at, &cur, k))
			;
	}
	sim_mem_hot_flush(cta);
	o->c = cta->c;
	o->aborted = cta->aborted;
	o->executed = cta->executed;
	o->budget_line = cta->budget_line;
	o->fault = cta->fault;
	o->compiled = cta->jit != NULL;
	o->full_thread_inst = 32 * cta->full_warp_inst;
	if (cta->findings.occurrences) { /* hand the findings over; the worker starts a fresh set */
		o->findings = cta->findings;
		free(o->findings.index);
		o->findings.index = NULL;
		o->findings.index_size = 0;
		gl_findings_init(&cta->findings, SIM_FINDINGS_PER_CTA);
	}
	o->trace = cta->trace;
	o->ntrace = cta->ntrace;
	o->trace_dropped = cta->trace_dropped;
	cta->trace = NULL;
	cta->pf = NULL;
}

/* Run the k-th CTA into `o`. */
static void run_one(struct pool *p, struct sim_cta *cta, long k, struct cta_out *o)
{
	prepare_one(p, cta, k, o);
	sim_cta_run(cta);
	finish_one(p, cta, k, o);
}

static void out_free(struct cta_out *o)
{
	gl_findings_free(&o->findings);
	free(o->trace);
	sim_printf_free(&o->pf);
	memset(o, 0, sizeof *o);
}

/* The next CTA to run, waiting for a free slot, and the engine it runs on (cta->jit); -1 when there is
 * none left (or the launch stopped). */
static long take(struct pool *p, struct sim_cta *cta)
{
	pthread_mutex_lock(&p->mu);
	while (p->next < p->nrun && p->next <= atomic_load(&p->L->stop_at) && p->next >= p->merged + p->window)
		pthread_cond_wait(&p->can_take, &p->mu);
	long k = p->next < p->nrun && p->next <= atomic_load(&p->L->stop_at) ? p->next++ : -1;
	cta->jit = p->jit;
	pthread_mutex_unlock(&p->mu);
	return k;
}

/* auto: the first CTA run (o, still the worker's copy) has finished on the interpreter; its
 * thread-instructions in full warps (the only ones the compiled engine runs) decide the engine of the CTAs
 * not started yet: those beyond the first one of each worker.  Determined by the counts alone, so the
 * decision does not depend on timing (only how many CTAs start before a compile ends does). */
static void measured(struct pool *p, const struct cta_out *o)
{
	if (o->aborted) /* the launch stops at this CTA */
		return;
	struct sim_jit *j = sim_jit_auto(p->L, cta_index(p, 0), o->c.thread_inst, o->full_thread_inst,
					 p->nrun - p->threads, p->threads, p->auto_note, sizeof p->auto_note);
	pthread_mutex_lock(&p->mu);
	p->jit = j;
	pthread_mutex_unlock(&p->mu);
}

static void merge_ready(struct pool *p);

static void *worker(void *arg)
{
	struct pool *p = arg;
	struct sim_cta cta;
	if (cta_alloc(&cta, p->L, p->L->opts->trace_limit ? p->L->opts->trace_limit : GL_SIM_TRACE_LIMIT) == GL_OK) {
		for (long k; (k = take(p, &cta)) >= 0;) {
			struct cta_out out; /* filled outside the lock, handed over under it */
			run_one(p, &cta, k, &out);
			pthread_mutex_lock(&p->mu);
			struct cta_out *o = &p->slots[k % p->window];
			*o = out;
			o->ready = true;
			merge_ready(p);
			pthread_mutex_unlock(&p->mu);
			if (k == 0 && p->measure)
				measured(p, &out);
		}
	} else {
		pthread_mutex_lock(&p->mu);
		p->failed = 1;
		pthread_mutex_unlock(&p->mu);
	}
	cta_release(&cta);
	pthread_mutex_lock(&p->mu);
	p->workers--;
	pthread_cond_broadcast(&p->ready);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static void add_counts(struct gl_sim_counters *into, const struct gl_sim_counters *c)
{
	uint64_t *a = (uint64_t *)into;
	const uint64_t *b = (const uint64_t *)c;
	for (size_t i = 0; i < sizeof *c / sizeof(uint64_t); i++)
		a[i] += b[i];
}

/* The launch's budget (sim.h): the CTAs' warp instructions added up in grid order.  The CTA with which
 * the total passes it stops the launch there, with a budget finding, whatever the thread count. */
static void launch_budget(struct pool *p, struct cta_out *o)
{
	const struct sim_launch *L = p->L;
	p->executed += o->executed;
	if (o->aborted || p->executed <= L->budget)
		return;
	long idx = cta_index(p, p->merged);
	unsigned block[3] = {(unsigned)(idx % L->grid[0]), (unsigned)(idx / L->grid[0] % L->grid[1]),
			     (unsigned)(idx / ((long)L->grid[0] * L->grid[1]))}, thread[3] = {0, 0, 0};
	bool fresh;
	if (!o->findings.limit)
		gl_findings_init(&o->findings, SIM_FINDINGS_PER_CTA);
	struct gl_finding *f = gl_findings_note(&o->findings, "budget", o->budget_line, false, block, thread, &fresh);
	if (f && fresh)
		snprintf(f->message, sizeof f->message, "instruction budget of %llu warp instructions per launch "
			 "exhausted: the CTAs up to this one ran %llu (an endless loop? raise it with --max-instructions)",
			 (unsigned long long)L->budget, (unsigned long long)p->executed);
	o->aborted = true;
	long cur = atomic_load(&p->L->stop_at), k = p->merged;
	while (k < cur && !atomic_compare_exchange_weak(&p->L->stop_at, &cur, k))
		;
}

/* Merge one finished CTA into the result (called in grid order). */
static void merge_one(struct pool *p, struct cta_out *o, struct gl_sim_result *res, struct sim_printf_fifo *pf)
{
	if (!p->L->cooperative)
		launch_budget(p, o);
	add_counts(&res->c, &o->c);
	res->ctas_run++;
	res->jit_ctas += o->compiled;
	if (o->aborted && !res->aborted) {
		res->aborted_cta = cta_index(p, p->merged);
		res->fault = o->fault;
	}
	res->aborted |= o->aborted;
	gl_findings_merge(&p->findings, &o->findings);
	sim_printf_merge(pf, &o->pf);
	atomic_store(&p->printf_used, pf->used);
	if (o->ntrace) {
		res->trace = gl_xrealloc(res->trace, (size_t)(res->ntrace + o->ntrace) * sizeof *res->trace);
		memcpy(res->trace + res->ntrace, o->trace, (size_t)o->ntrace * sizeof *o->trace);
		res->ntrace += o->ntrace;
	}
	res->trace_dropped += o->trace_dropped;
	out_free(o);
}

/* "gemm naive (2/3)  [#####     ] 155/576 CTAs  9.0s  ETA 14s", redrawn in place on a terminal; *shown
 * keeps the widest line drawn, which is what clearing it overwrites (no wider: on a narrow terminal a wider
 * run of blanks would wrap and leave an empty line above what is printed next). */
static void progress(const struct pool *p, const char *label, long merged, double start, int *shown)
{
	double t = gl_now() - start;
	if (t < 1.0)
		return;
	int width = 10, filled = (int)((double)width * (double)merged / (double)p->nrun);
	int len = fprintf(stderr, "\r%s  [%.*s%*s] %ld/%ld CTAs  %.1fs", label ? label : "simulating", filled,
			  "##########", width - filled, "", merged, p->nrun, t);
	if (merged > 0)
		len += fprintf(stderr, "  ETA %.0fs ", t * (double)(p->nrun - merged) / (double)merged);
	if (len - 1 > *shown)
		*shown = len - 1;
}

/* Merge, in grid order, the finished CTAs from `merged` on, up to the first one not finished yet (whose
 * worker merges on from there).  Called with mu held, by one worker at a time; mu is released around
 * each merge, and no worker can take the slot being merged: CTA merged + window waits for it. */
static void merge_ready(struct pool *p)
{
	if (p->merging)
		return; /* the worker merging will find this CTA when it gets to it */
	p->merging = true;
	while (p->merged < p->nrun && p->merged <= atomic_load(&p->L->stop_at)) {
		struct cta_out *o = &p->slots[p->merged % p->window];
		if (!o->ready)
			break;
		pthread_mutex_unlock(&p->mu);
		merge_one(p, o, p->res, p->pf);
		pthread_mutex_lock(&p->mu);
		p->merged++;
		pthread_cond_broadcast(&p->can_take);
	}
	p->merging = false;
}

/* The calling thread waits while the workers run and merge the CTAs, drawing the progress line. */
static void wait_workers(struct pool *p, bool show_progress, const char *label)
{
	double start = gl_now();
	int shown = 0; /* the widest progress line drawn */
	pthread_mutex_lock(&p->mu);
	while (p->workers) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->ready, &p->mu, &until);
		if (show_progress)
			progress(p, label, p->merged, start, &shown);
	}
	pthread_mutex_unlock(&p->mu);
	if (shown)
		fprintf(stderr, "\r%*s\r", shown, "");
}

/* Start the workers and merge; GL_EENV when no worker could get memory for its CTA state. */
static int run_pool(struct pool *p, int threads, struct gl_sim_result *res, struct sim_printf_fifo *pf,
		    bool show_progress, const char *label, struct gl_err *err)
{
	pthread_t tids[256];
	int started = 0;
	p->res = res;
	p->pf = pf;
	p->workers = threads; /* each worker counts itself out when it ends, as does each that did not start */
	p->threads = threads;
	for (int i = 0; i < threads; i++) {
		if (pthread_create(&tids[started], NULL, worker, p) == 0) {
			started++;
			continue;
		}
		pthread_mutex_lock(&p->mu);
		p->workers--;
		pthread_mutex_unlock(&p->mu);
	}
	if (!started) { /* no threads to be had: run the CTAs on this one, one at a time */
		p->window = 1;
		p->workers = 1;
		p->threads = 1;
		struct sim_cta cta;
		if (cta_alloc(&cta, p->L, p->L->opts->trace_limit ? p->L->opts->trace_limit : GL_SIM_TRACE_LIMIT) == GL_OK) {
			for (long k; (k = take(p, &cta)) >= 0; p->merged++) {
				run_one(p, &cta, k, &p->slots[0]);
				if (k == 0 && p->measure)
					measured(p, &p->slots[0]);
				merge_one(p, &p->slots[0], res, pf);
			}
		} else {
			p->failed = 1;
		}
		cta_release(&cta);
	} else {
		wait_workers(p, show_progress, label);
		for (int i = 0; i < started; i++)
			pthread_join(tids[i], NULL);
	}
	for (long i = 0; i < p->window; i++) /* CTAs after the one that stopped the launch */
		out_free(&p->slots[i]);
	if (p->failed && !res->ctas_run)
		return gl_errf(err, GL_EENV, "out of memory: no host memory for the state of one CTA (%llu bytes of "
			       "shared and %llu of local memory); close other programs or use fewer --threads",
			       (unsigned long long)p->L->shared_size,
			       (unsigned long long)p->L->threads_per_cta * p->L->fn->local_size);
	return GL_OK;
}

/* CTAs of a cooperative launch that can be resident at once on the simulated device, an A100 (sm_80):
 * 108 SMs, each holding at most 32 CTAs, 64 warps and 167936 bytes of shared memory, of which every CTA
 * takes 1024 reserved bytes besides its own (CUDA's occupancy rules; registers are left out, since
 * ptxas's allocation is not in the PTX). */
#define SIM_COOP_SMS 108
static long residency_limit(const struct sim_launch *L, long *per_sm)
{
	long by_warps = 64 / (long)L->warps_per_cta;
	long by_smem = (long)(167936 / (L->shared_size + 1024));
	*per_sm = by_warps < by_smem ? by_warps : by_smem;
	if (*per_sm > 32)
		*per_sm = 32;
	return SIM_COOP_SMS * *per_sm;
}

/* A cooperative launch: every CTA is resident at once, and they take turns on this thread (each runs
 * until every warp of it has had a turn: a warp that spins on grid.sync()'s barrier word gives way
 * after a bounded number of loop iterations, so the turns, and the counts, depend only on the
 * instructions executed).  The first CTA that aborts stops the launch. */
static int run_cooperative(struct pool *p, struct gl_sim_result *res, struct sim_printf_fifo *pf, struct gl_err *err)
{
	struct sim_launch *L = p->L;
	long n = p->nrun, made = 0;
	struct sim_cta *ctas = gl_xcalloc((size_t)n, sizeof *ctas);
	struct cta_out *outs = gl_xcalloc((size_t)n, sizeof *outs);
	uint8_t *over = gl_xcalloc((size_t)n, 1);
	int rc = GL_OK;
	for (; made < n && rc == GL_OK; made++)
		if (cta_alloc(&ctas[made], L, L->opts->trace_limit ? L->opts->trace_limit : GL_SIM_TRACE_LIMIT) != GL_OK)
			rc = gl_errf(err, GL_EENV, "out of memory: no host memory for the %ld co-resident CTAs of this "
				     "cooperative launch", n);
	if (rc == GL_OK) {
		for (long k = 0; k < n; k++) {
			prepare_one(p, &ctas[k], k, &outs[k]);
			sim_cta_start(&ctas[k]);
		}
		long left = n;
		bool stop = false;
		while (left && !stop)
			for (long k = 0; k < n && !stop; k++) {
				int r = over[k] ? 0 : sim_cta_resume(&ctas[k]);
				if (r != 0) {
					over[k] = 1;
					left--;
					stop = r < 0;
				}
			}
		for (long k = 0; k < n; k++)
			finish_one(p, &ctas[k], k, &outs[k]);
		for (long k = 0; k < n; k++) {
			if (k <= atomic_load(&L->stop_at)) {
				merge_one(p, &outs[k], res, pf);
				p->merged++;
			} else {
				out_free(&outs[k]);
			}
		}
	}
	for (long k = 0; k < made; k++)
		cta_release(&ctas[k]);
	free(ctas);
	free(outs);
	free(over);
	return rc;
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

/* Does the module call the device printf?  Only then does each pending CTA hold a printf buffer. */
static bool uses_printf(const struct ptx_module *m)
{
	for (int i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].builtin == PTX_BUILTIN_VPRINTF)
			return true;
	return false;
}

static bool uses_cp_async(const struct ptx_function *fn)
{
	for (int i = 0; i < fn->ncode; i++)
		if (fn->code[i].op == OP_CP_ASYNC)
			return true;
	return false;
}

/* What the launch holds in host memory at once, checked against the rule gpulab applies to every
 * allocation it plans (gl_check_host_memory): the buffers, each worker's CTA state (shared memory and
 * its shadow, local memory of every thread, registers, a trace buffer), and the window of finished CTAs
 * waiting to be merged (findings, printf records up to the buffer's size, twice with the merged copy). */
static int check_launch_memory(const struct sim_launch *L, const struct gl_launch *l, int threads, long window,
			       struct gl_err *err)
{
	double buffers = L->opts->memory ? 0.0 : (double)L->m->global_size; /* the caller's memory is the caller's */
	for (int i = 0; i < l->nbuffers && !L->opts->memory; i++)
		buffers += (double)l->buffers[i].count * gl_dtype_size(l->buffers[i].dtype);
	double local = (double)L->threads_per_cta * L->local_per_thread;
	double cta = (double)L->shared_size + (double)(L->shared_size / 4 + 1) * sizeof(struct sim_shadow) +
		     (double)SIM_QUIET_ROWS(L) * 8 * (1 + L->warps_per_cta) + SIM_SHAPE_SLOTS * sizeof(struct sim_shape) +
		     local + (double)L->fn->nslots * 32 * 8 * L->warps_per_cta +
		     (double)L->warps_per_cta * sizeof(struct sim_warp);
	if (L->opts->trace)
		cta += (double)(L->opts->trace_limit ? L->opts->trace_limit : GL_SIM_TRACE_LIMIT) *
		       sizeof(struct gl_trace_event);
	if (uses_cp_async(L->fn)) /* cp.async bookkeeping for racecheck (sim_async.c) */
		cta += (double)(L->shared_size / 4 + 1) * sizeof(struct sim_async_word) +
		       (double)L->threads_per_cta * sizeof(struct sim_async_thread);
	double pending = sizeof(struct cta_out) + SIM_FINDINGS_PER_CTA * sizeof(struct gl_finding) +
			 (uses_printf(L->m) ? 2.0 * (double)L->printf_buffer : 0.0);
	double total = buffers + threads * cta + (double)(window + 1) * pending;
	char what[320];
	snprintf(what, sizeof what, "this launch (%.1f MiB of buffers, %d worker%s x %.1f MiB of CTA state of which "
		 "%.1f MiB is local memory of %u threads, %ld pending CTAs x %.1f MiB)", buffers / 1048576.0, threads,
		 threads == 1 ? "" : "s", cta / 1048576.0, local / 1048576.0, L->threads_per_cta, window + 1,
		 pending / 1048576.0);
	/* Not counted: each worker's global race table, which grows with the distinct words one CTA touches
	 * (most touch a few) up to its cap (sim_race.h), so charging the worst case would refuse ordinary
	 * launches. */
	return gl_check_host_memory(what, total, err);
}

/* The launch's own state, on every way out of gl_sim_run (the buffers are the caller's). */
static void free_launch(struct sim_launch *L)
{
	free(L->konst);
	free(L->specials);
	free(L->definition);
	free(L->frame_size);
	free(L->stack_cost);
	sim_tex_free(L);
	sim_jit_free(L->jit);
	free(L);
}

int gl_sim_run(const struct ptx_module *m, struct gl_launch *l, const struct gl_sim_opts *opts,
	       struct gl_sim_result *res, struct gl_err *err)
{
	memset(res, 0, sizeof *res);
	const struct ptx_function *fn = ptx_find_function(m, l->entry);
	ptx_share_slots(fn); /* a lazily parsed kernel's first launch (ptx.h); before anything reads its code */
	if (fn && ptx_check_function(m, fn, err)) /* a lazily parsed module: this kernel or a callee failed */
		return err->status;
	if (!fn || !fn->code)
		return gl_errf(err, GL_EUSAGE, "no kernel named '%s' in %s", l->entry, m->name);
	int rc = check_args(fn, l, opts, err);
	if (!rc)
		rc = check_geometry(fn, l, err);
	if (!rc && l->textures)
		rc = gl_tex_check_table(l->textures, l->ntextures, err);
	if (!rc)
		rc = sim_fault_check(opts, err);
	if (rc)
		return rc;
	struct sim_launch *L = gl_xcalloc(1, sizeof *L);
	L->m = m;
	L->fn = fn;
	L->opts = opts;
	setup_calls(L);
	for (int i = 0; fn->sass && i < fn->ncode; i++)
		L->sass_phases |= fn->sass[i].span > 1;
	memcpy(L->grid, l->grid, sizeof L->grid);
	memcpy(L->block, l->block, sizeof L->block);
	L->threads_per_cta = l->block[0] * l->block[1] * l->block[2];
	L->warps_per_cta = (L->threads_per_cta + 31) / 32;
	L->dyn_smem = l->dyn_smem;
	L->shared_size = fn->shared_static + l->dyn_smem;
	if (L->reserved_used) { /* cooperative_groups' reserved shared memory, after the CTA's own */
		L->reserved_smem = (L->shared_size + 15) & ~(uint64_t)15;
		L->shared_size = L->reserved_smem + SIM_RESERVED_SMEM;
	}
	L->budget = opts->max_instructions ? opts->max_instructions : GL_SIM_DEFAULT_BUDGET;
	L->cta_budget = opts->max_instructions ? opts->max_instructions : GL_SIM_CTA_BUDGET;
	if (opts->max_cta_instructions && opts->max_cta_instructions < L->cta_budget)
		L->cta_budget = opts->max_cta_instructions;
	L->trace_ctas = opts->trace_ctas ? opts->trace_ctas : GL_SIM_TRACE_CTAS;
	L->tools = opts->tools ? opts->tools : GL_TOOL_ALL;
	L->printf_buffer = opts->printf_buffer ? opts->printf_buffer : GL_SIM_PRINTF_BUFFER;
	sim_fault_setup(L, opts);
	atomic_init(&L->stop_at, LONG_MAX);

	struct pool p = {.L = L};
	p.total = (long)l->grid[0] * l->grid[1] * l->grid[2];
	p.nrun = opts->sample_ctas > 0 && opts->sample_ctas < p.total && !L->cooperative ? opts->sample_ctas : p.total;
	long per_sm = 0, limit = residency_limit(L, &per_sm);
	if (opts->memory && opts->memory->max_resident_ctas > 0) /* the caller checked its GPU model's limit */
		limit = opts->memory->max_resident_ctas;
	if (L->cooperative && p.total > limit) {
		rc = gl_errf(err, GL_EUSAGE, "kernel '%s' uses the grid workspace (cooperative_groups::this_grid(), "
			     "grid.sync()), so its %ld CTAs must all be resident at once; the simulated device (an A100, "
			     "sm_80) holds at most %ld: %d SMs x %ld CTAs of %u threads and %llu bytes of shared memory; "
			     "launch a grid of at most %ld CTAs", fn->name, p.total, limit, SIM_COOP_SMS, per_sm,
			     L->threads_per_cta, (unsigned long long)L->shared_size, limit);
		free_launch(L);
		return rc;
	}
	if (opts->cta_end > 0) {
		if (L->cooperative || opts->cta_first < 0 || opts->cta_first >= opts->cta_end || opts->cta_end > p.total) {
			rc = L->cooperative
				? gl_errf(err, GL_EUSAGE, "kernel '%s' uses the grid workspace (grid.sync()): its CTAs "
					  "must all run together, so it cannot be split into CTA ranges", fn->name)
				: gl_errf(err, GL_EUSAGE, "CTA range %ld:%ld does not fit the grid of %ld CTA%s (%u,%u,%u): "
					  "pass A:B with 0 <= A < B <= %ld", opts->cta_first, opts->cta_end, p.total,
					  p.total == 1 ? "" : "s", l->grid[0], l->grid[1], l->grid[2], p.total);
			free_launch(L);
			return rc;
		}
		p.ranged = true;
		p.first = opts->cta_first;
		p.nrun = opts->cta_end - opts->cta_first;
	}
	gl_findings_init(&p.findings, GL_FINDINGS_MAX);
	int threads = pick_threads(opts, p.nrun);
	p.window = 2L * threads + 2;
	if (p.window > p.nrun)
		p.window = p.nrun;
	/* a cooperative launch holds every CTA's state at once */
	rc = check_launch_memory(L, l, L->cooperative ? (int)p.nrun : threads, p.window, err);
	if (rc) {
		free_launch(L);
		return rc;
	}
	setup_memory(L, l);
	sim_tex_setup(L, l);
	/* the buffers come first; module globals after */
	sim_touch_init(&L->touch, L->regions, opts->memory ? opts->memory->ntouch : l->nbuffers);
	L->spots = calloc((size_t)fn->ncode * SIM_SPOT_KINDS, sizeof *L->spots); /* NULL: no hot spots named */
	L->specials = gl_xmalloc((size_t)L->warps_per_cta * SR_COUNT * 32 * sizeof *L->specials);
	sim_specials_template(L, L->specials);
	p.measure = sim_jit_choose(L, res);
	p.jit = L->jit; /* --engine compiled: every CTA */
	p.slots = gl_xcalloc((size_t)p.window, sizeof *p.slots);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.can_take, NULL);
	pthread_cond_init(&p.ready, NULL);
	struct sim_printf_fifo pf = {.size = L->printf_buffer};
	double t0 = gl_now();
	rc = L->cooperative ? run_cooperative(&p, res, &pf, err)
			    : run_pool(&p, threads, res, &pf, opts->progress, opts->progress_label, err);
	res->wall_seconds = gl_now() - t0;
	if (L->jit) { /* what ran: the compiled engine when it ran any CTA merged */
		if (res->jit_ctas)
			snprintf(res->engine, sizeof res->engine, "compiled");
		res->jit_compile_seconds = L->jit->compile_seconds;
		res->jit_native = L->jit->native;
		res->jit_ncode = L->jit->ncode;
		if (p.measure)
			res->jit_measured_cta = cta_index(&p, 0);
	}
	if (p.auto_note[0])
		snprintf(res->engine_note, sizeof res->engine_note, "%.*s%s", (int)sizeof res->engine_note - 80,
			 p.auto_note, L->jit && !res->jit_ctas ? "; every CTA had started before it was loaded, so the "
			 "interpreter ran them all" : "");
	res->threads = L->cooperative ? 1 : threads;
	res->cooperative = L->cooperative;
	res->sass_mapped = fn->sass != NULL;
	res->ctas_total = p.total;
	res->scale = res->ctas_run && !p.ranged ? (double)p.total / (double)p.nrun : 1.0;
	res->cta_first = p.ranged ? p.first : 0;
	res->cta_end = p.ranged ? p.first + p.nrun : 0;
	sim_touch_count(&L->touch, &res->c.uniq_ld, &res->c.uniq_st);
	sim_touch_free(&L->touch);
	sim_spots_result(L, res);
	free(L->spots);
	res->printf_buffer = L->printf_buffer;
	res->printf_dropped = pf.dropped;
	res->printf_unsupported = pf.note.unsupported;
	memcpy(res->printf_first_unsupported, pf.note.first, sizeof res->printf_first_unsupported);
	res->printf_out = sim_printf_text(&pf);
	gl_findings_order(&p.findings); /* errors first */
	res->findings = p.findings.items;
	res->nfindings = p.findings.n;
	res->nerrors = p.findings.errors;
	res->findings_total = p.findings.occurrences;
	res->findings_dropped = p.findings.dropped;
	free(p.findings.index);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.can_take);
	pthread_cond_destroy(&p.ready);
	for (int i = L->owned_from; i < L->nregions; i++) /* module globals, grid workspace */
		free(L->regions[i].host);
	free(L->regions);
	free(p.slots);
	free_launch(L);
	if (rc)
		gl_sim_result_free(res);
	return rc;
}

void gl_sim_result_free(struct gl_sim_result *res)
{
	free(res->findings);
	free(res->printf_out);
	free(res->trace);
	memset(res, 0, sizeof *res);
}
