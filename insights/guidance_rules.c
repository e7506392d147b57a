/* guidance_rules.c — the rules table: every metric gpulab reports has a rule that explains it.
 * Thresholds follow Nsight Compute's rules where they are public (docs/insights.md).  A rule with a fix
 * the model can apply (OPT, and the WRN rules on occupancy, divergence and spills) computes its speedup
 * by running the model again on the counts with that fix applied, and fires only when the fix would
 * save at least GL_RULE_MIN_SPEEDUP of the estimated time: advice never points at a change the model
 * says would not help. */
#include "guidance.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/metrics.h"

#define GL_RULE_MIN_SPEEDUP 0.01

static double mv(const struct gl_rule_input *in, const char *name)
{
	const double *v = gl_metrics_get(&in->l->metrics, name);
	return v ? *v : NAN;
}

static double m0(const struct gl_rule_input *in, const char *name)
{
	double v = mv(in, name);
	return isnan(v) ? 0 : v;
}

/* The share of the estimated time the fix saves (0 when it saves nothing or there is no estimate). */
static double model_speedup(const struct gl_rule_input *in, gl_model_fix fix, const void *arg)
{
	double now = in->est->time_us;
	if (isnan(now) || !(now > 0))
		return 0;
	double fixed = gl_estimate_fixed_us(in->est->gpu, in->l, fix, arg);
	return isnan(fixed) || fixed >= now ? 0 : 1 - fixed / now;
}

/* "; at source line 42 (PTX line 310): 87% of them" for the instruction with the most of this kind of
 * waste (the simulator's hot spots, docs/sim.md), or "" without one. */
static void hotspot(const struct gl_rule_input *in, const char *kind, char *buf, size_t n)
{
	char name[96];
	buf[0] = '\0';
	snprintf(name, sizeof name, GL_M_HOTSPOT_PREFIX "%s_ptx_line", kind);
	double ptx = mv(in, name);
	snprintf(name, sizeof name, GL_M_HOTSPOT_PREFIX "%s_src_line", kind);
	double src = mv(in, name);
	snprintf(name, sizeof name, GL_M_HOTSPOT_PREFIX "%s_share", kind);
	double share = mv(in, name);
	if (isnan(ptx) || !(ptx > 0))
		return;
	if (src > 0)
		snprintf(buf, n, "; the worst access is at source line %.0f (PTX line %.0f), %.0f%% of them", src, ptx,
			 100 * share);
	else
		snprintf(buf, n, "; the worst access is at PTX line %.0f, %.0f%% of them", ptx, 100 * share);
}

/* ---- uncoalesced global accesses */

struct coalesce_fix {
	bool stores;
};

/* Every request moves only the sectors its bytes need: the excess sectors leave the L1 and L2 traffic and
 * the tag lookups; the footprint (what DRAM must deliver once) stays. */
static void fix_coalesce(struct gl_model_in *in, const struct gl_estimate *now, const void *arg)
{
	(void)now;
	bool st = ((const struct coalesce_fix *)arg)->stores;
	double sect = st ? in->gst_sect : in->gld_sect, ideal = st ? in->gst_sectors_ideal : in->gld_sectors_ideal;
	double req = st ? in->gst_req : in->gld_req, lines = st ? in->gst_lines : in->gld_lines;
	if (isnan(ideal)) /* a GPU's counters have no ideal: full warps of 4-byte accesses */
		ideal = 4 * req;
	if (!(sect > ideal))
		return;
	struct gl_traffic *t = &in->traffic;
	double excess = sect - ideal, ideal_lines = fmax(req, ideal / 4);
	in->tag_lookups -= lines > ideal_lines ? lines - ideal_lines : 0;
	t->l1_bytes -= 32 * excess;
	if (st) {
		t->st_sectors -= excess;
		t->l2_bytes -= 32 * excess;
	} else {
		double ld_l2 = t->l2_bytes - 32 * (t->st_sectors + t->atom_sectors + t->local_sectors);
		t->l2_bytes -= ld_l2 * excess / t->ld_sectors; /* the misses in proportion */
		t->ld_sectors -= excess;
	}
}

/* Uncoalesced global accesses: sectors per request against the ideal for the access width (the
 * sectors the active lanes' bytes fill when adjacent: 4 for 32 lanes x 4 bytes).  Fires when at least
 * a fifth of the sectors are excess and coalescing them would save time by the model. */
static bool uncoalesced(const struct gl_rule_input *in, struct gl_guidance *out, bool stores)
{
	const char *req_m = stores ? GL_M_GST_REQ : GL_M_GLD_REQ, *sect_m = stores ? GL_M_GST_SECT : GL_M_GLD_SECT;
	double req = mv(in, req_m), sect = mv(in, sect_m), ideal = mv(in, stores ? GL_M_GST_IDEAL : GL_M_GLD_IDEAL);
	if (!(req > 0) || !(sect > 0))
		return false;
	const char *assumed = "";
	if (isnan(ideal)) {
		ideal = 4 * req;
		assumed = " (assuming full warps of 4-byte accesses)";
	}
	double excess = sect - ideal;
	if (excess < 0.2 * sect)
		return false;
	struct coalesce_fix arg = {stores};
	out->estimated_speedup = model_speedup(in, fix_coalesce, &arg);
	if (out->estimated_speedup < GL_RULE_MIN_SPEEDUP)
		return false;
	char where[128];
	hotspot(in, stores ? "gst" : "gld", where, sizeof where);
	snprintf(out->metric, sizeof out->metric, "%s", sect_m);
	out->value = sect / req;
	snprintf(out->message, sizeof out->message,
		 "global %s: %.1f sectors per request against an ideal of %.1f for their width%s; %.0f%% of the %.0f "
		 "sectors are excess traffic%s",
		 stores ? "stores" : "loads", sect / req, ideal / req, assumed, 100 * excess / sect, sect, where);
	return true;
}

static bool rule_gld(const struct gl_rule_input *in, struct gl_guidance *out)
{
	return uncoalesced(in, out, false);
}

static bool rule_gst(const struct gl_rule_input *in, struct gl_guidance *out)
{
	return uncoalesced(in, out, true);
}

/* ---- shared bank conflicts */

static void fix_conflicts(struct gl_model_in *in, const struct gl_estimate *now, const void *arg)
{
	(void)now;
	if (*(const bool *)arg) {
		in->shared_wf_st -= in->shared_conf_st;
		in->traffic.l1_bytes -= 128 * in->shared_conf_st;
	} else {
		in->shared_wf_ld -= in->shared_conf_ld;
		in->traffic.l1_bytes -= 128 * in->shared_conf_ld;
	}
}

/* As Nsight Compute's SharedMemoryConflicts: conflicts are at least 10% of the wavefronts (and the model
 * says removing them saves time). */
static bool conflicts(const struct gl_rule_input *in, struct gl_guidance *out, bool stores)
{
	const char *wf_m = stores ? GL_M_SST_WF : GL_M_SLD_WF, *conf_m = stores ? GL_M_SST_CONF : GL_M_SLD_CONF;
	/* ldmatrix (LDSM) wavefronts are counted with the loads, so are its instructions */
	double inst = stores ? mv(in, GL_M_SST_INST) : gl_metrics_shared_ld_requests(&in->l->metrics);
	double wf = mv(in, wf_m), conf = mv(in, conf_m);
	if (!(wf > 0) || !(inst > 0) || !(conf >= 0.10 * wf))
		return false;
	out->estimated_speedup = model_speedup(in, fix_conflicts, &stores);
	if (out->estimated_speedup < GL_RULE_MIN_SPEEDUP)
		return false;
	char where[128];
	hotspot(in, stores ? "sst" : "sld", where, sizeof where);
	snprintf(out->metric, sizeof out->metric, "%s", conf_m);
	out->value = conf;
	snprintf(out->message, sizeof out->message,
		 "shared %s: %.1f wavefronts per instruction (ideal %.1f); %.0f%% of the %.0f wavefronts are bank "
		 "conflicts%s",
		 stores ? "stores" : "loads", wf / inst, (wf - conf) / inst, 100 * conf / wf, wf, where);
	return true;
}

static bool rule_sld(const struct gl_rule_input *in, struct gl_guidance *out)
{
	return conflicts(in, out, false);
}

static bool rule_sst(const struct gl_rule_input *in, struct gl_guidance *out)
{
	return conflicts(in, out, true);
}

/* Global atomics serialize per address at the L2: many atomic requests on few distinct sectors (the
 * launch's written footprint bounds the addresses they can reach) wait for each other.  The model has no
 * term for that wait, so this warning gives no speedup.  Fires when atomics are at least a tenth of the
 * global requests and each written sector takes 64 or more. */
static bool rule_atomics(const struct gl_rule_input *in, struct gl_guidance *out)
{
	double atom = m0(in, GL_M_GATOM_REQ) + m0(in, GL_M_GRED_REQ);
	double all = atom + m0(in, GL_M_GLD_REQ) + m0(in, GL_M_GST_REQ);
	double sectors = mv(in, GL_M_UNIQ_ST_SECT);
	if (isnan(sectors)) /* on a GPU: the sectors the atomics' requests touched, an upper bound */
		sectors = m0(in, GL_M_GATOM_SECT) + m0(in, GL_M_GRED_SECT);
	if (!(atom > 0) || atom < 0.10 * all || !(sectors > 0) || atom / sectors < 64)
		return false;
	snprintf(out->metric, sizeof out->metric, "%s", atom == m0(in, GL_M_GRED_REQ) ? GL_M_GRED_REQ : GL_M_GATOM_REQ);
	out->value = atom;
	snprintf(out->message, sizeof out->message,
		 "%.0f global atomic requests (%.0f%% of the global requests) land on at most %.0f distinct sectors: "
		 "%.0f requests per sector, serialized at the L2 on the same addresses",
		 atom, 100 * atom / all, sectors, atom / sectors);
	return true;
}

/* ---- divergence: full warps issue the same work in fewer warp instructions */

static void fix_divergence(struct gl_model_in *in, const struct gl_estimate *now, const void *arg)
{
	(void)now, (void)arg;
	if (in->thread_inst > 0 && in->inst > in->thread_inst / 32)
		in->inst = in->thread_inst / 32;
}

/* Average active threads per executed warp instruction (Nsight Compute's
 * smsp__thread_inst_executed_per_inst_executed.ratio); fires below 24 of 32. */
static bool rule_divergence(const struct gl_rule_input *in, struct gl_guidance *out)
{
	double r = mv(in, GL_M_THREADS_PER_INST);
	if (isnan(r) && m0(in, GL_M_INST) > 0)
		r = m0(in, GL_M_THREAD_INST) / m0(in, GL_M_INST);
	if (isnan(r) || r >= 24)
		return false;
	out->estimated_speedup = model_speedup(in, fix_divergence, NULL);
	if (out->estimated_speedup < GL_RULE_MIN_SPEEDUP)
		return false;
	snprintf(out->metric, sizeof out->metric, "%s", GL_M_THREADS_PER_INST);
	out->value = r;
	snprintf(out->message, sizeof out->message,
		 "%.1f of 32 threads are active per warp instruction on average (%.0f%% SIMT efficiency): branches "
		 "diverge within warps or warps run partly empty",
		 r, 100 * r / 32);
	return true;
}

/* ---- local memory */

static void fix_local(struct gl_model_in *in, const struct gl_estimate *now, const void *arg)
{
	(void)now, (void)arg;
	struct gl_traffic *t = &in->traffic;
	in->tag_lookups -= in->local_req;
	in->gld_requests -= in->local_req; /* the loads among them, roughly: the latency bound waits less */
	if (in->gld_requests < 0)
		in->gld_requests = 0;
	t->l1_bytes -= 32 * t->local_sectors;
	t->l2_bytes -= 32 * t->local_sectors;
	t->local_sectors = 0;
	in->inst -= in->local_req;
}

/* Register spills or arrays the compiler could not keep in registers. */
static bool rule_local(const struct gl_rule_input *in, struct gl_guidance *out)
{
	double req = m0(in, GL_M_LLD_REQ) + m0(in, GL_M_LST_REQ), sect = m0(in, GL_M_LLD_SECT) + m0(in, GL_M_LST_SECT);
	if (!(req > 0))
		return false;
	out->estimated_speedup = model_speedup(in, fix_local, NULL);
	if (out->estimated_speedup < GL_RULE_MIN_SPEEDUP)
		return false;
	snprintf(out->metric, sizeof out->metric, "%s", GL_M_LLD_REQ);
	out->value = req;
	double l2 = in->est->l2_bytes / 32;
	snprintf(out->message, sizeof out->message,
		 "%.0f local-memory requests (%.0f sectors, %.0f%% of the L2 sectors): register spills or a "
		 "dynamically indexed local array",
		 req, sect, l2 > 0 ? 100 * sect / l2 : 0);
	return true;
}

/* ---- occupancy: the warps that hide latency */

/* The resident warps once the binding limit (registers or shared memory) no longer binds: the calculator
 * again without it. */
static void fix_occupancy(struct gl_model_in *in, const struct gl_estimate *now, const void *arg)
{
	(void)arg;
	struct gl_occ_input o = in->occ;
	if (now->occ.limiter & GL_OCC_REGISTERS)
		o.regs_per_thread = 0;
	if (now->occ.limiter & GL_OCC_SHARED)
		o.static_smem = o.dyn_smem = 0;
	struct gl_occupancy better;
	gl_occupancy_compute(now->gpu, &o, &better);
	if (better.warps_per_sm > now->occ.warps_per_sm)
		in->occ_warps_override = better.warps_per_sm;
}

/* Fewer resident warps than the model needs to hide latency, or none at all. */
static bool rule_occupancy(const struct gl_rule_input *in, struct gl_guidance *out)
{
	const struct gl_occupancy *o = &in->est->occ;
	char lim[64];
	gl_occupancy_limiter_name(o->limiter, lim, sizeof lim);
	snprintf(out->metric, sizeof out->metric, "occupancy.theoretical_pct");
	out->value = o->pct;
	if (o->blocks_per_sm == 0) {
		snprintf(out->message, sizeof out->message, "the launch cannot run on %s: %s", in->est->gpu->name,
			 o->why_zero ? o->why_zero : lim);
		return true;
	}
	if (!(o->limiter & (GL_OCC_REGISTERS | GL_OCC_SHARED)))
		return false; /* warps or blocks per SM: only a different block size changes that */
	out->estimated_speedup = model_speedup(in, fix_occupancy, NULL);
	if (out->estimated_speedup < GL_RULE_MIN_SPEEDUP)
		return false;
	snprintf(out->message, sizeof out->message,
		 "theoretical occupancy on %s is %.1f%% (%d of %d warps per SM, %d blocks), limited by %s; the "
		 "estimate is bound by load latency, which more resident warps hide",
		 in->est->gpu->name, o->pct, o->warps_per_sm, o->max_warps_per_sm, o->blocks_per_sm, lim);
	return true;
}

/* ---- tail effect */

static void fix_tail(struct gl_model_in *in, const struct gl_estimate *now, const void *arg)
{
	(void)now, (void)arg;
	in->no_tail = true;
}

/* The last wave of blocks is partly empty, or the grid does not fill one wave. */
static bool rule_tail(const struct gl_rule_input *in, struct gl_guidance *out)
{
	const struct gl_estimate *e = in->est;
	if (!(e->waves > 0) || e->wave_factor < 1.10)
		return false;
	out->estimated_speedup = model_speedup(in, fix_tail, NULL);
	if (out->estimated_speedup < GL_RULE_MIN_SPEEDUP)
		return false;
	double per_wave = (double)e->occ.blocks_per_sm * e->gpu->sm_count;
	snprintf(out->metric, sizeof out->metric, "launch.waves_per_multiprocessor");
	out->value = e->waves;
	double blocks = round(e->waves * per_wave);
	if (blocks < e->gpu->sm_count)
		snprintf(out->message, sizeof out->message,
			 "the grid's %.0f block%s keep%s %.0f of the %d SMs of %s busy; the others idle", blocks,
			 blocks == 1 ? "" : "s", blocks == 1 ? "s" : "", blocks, e->gpu->sm_count, e->gpu->name);
	else
		snprintf(out->message, sizeof out->message,
			 "%.2f waves of %.0f blocks on %s: the last wave is %.0f%% full, so %.0f%% of the time is a "
			 "partly idle GPU",
			 e->waves, per_wave, e->gpu->name, 100 * (e->waves - floor(e->waves)), 100 * (1 - 1 / e->wave_factor));
	return true;
}

/* ---- roofline: which resource bounds the estimate, and where the launch sits against the ridge */

static bool rule_roofline(const struct gl_rule_input *in, struct gl_guidance *out)
{
	const struct gl_estimate *e = in->est;
	if (isnan(e->time_us) || !(e->bound_us[e->bound] > 0))
		return false;
	const struct gl_gpu_model *g = e->gpu;
	double ridge = e->compute_peak_gflops / g->dram_gbs;
	snprintf(out->metric, sizeof out->metric, "roofline.intensity");
	out->value = e->intensity;
	snprintf(out->message, sizeof out->message,
		 "estimate (model) on %s: %.2f us, %s-bound by %s; %.3g FLOP per DRAM byte (L2 %.3g, L1 %.3g) against "
		 "a DRAM ridge of %.0f for its FLOP mix",
		 g->name, e->time_us, gl_bound_is_memory(e->bound) ? "memory" : "compute", gl_bound_name(e->bound),
		 e->intensity, e->intensity_l2, e->intensity_l1, ridge);
	return true;
}

const struct gl_rule gl_rules[] = {
	{"uncoalesced_global_loads", GL_M_GLD_SECT " / " GL_M_GLD_REQ " vs " GL_M_GLD_IDEAL, "OPT",
	 "have consecutive threads read consecutive addresses, or stage the access through shared memory", rule_gld},
	{"uncoalesced_global_stores", GL_M_GST_SECT " / " GL_M_GST_REQ " vs " GL_M_GST_IDEAL, "OPT",
	 "have consecutive threads write consecutive addresses, or stage the tile through shared memory", rule_gst},
	{"shared_bank_conflicts_loads", GL_M_SLD_CONF " / " GL_M_SLD_WF, "OPT",
	 "pad or swizzle the shared array so a warp's lanes hit distinct banks", rule_sld},
	{"shared_bank_conflicts_stores", GL_M_SST_CONF " / " GL_M_SST_WF, "OPT",
	 "pad or swizzle the shared array so a warp's lanes hit distinct banks", rule_sst},
	{"atomics_contention", GL_M_GATOM_REQ " + " GL_M_GRED_REQ " per " GL_M_UNIQ_ST_SECT, "WRN",
	 "reduce in registers and shared memory first (warp shuffle, block tree), one atomic per block", rule_atomics},
	{"divergence", GL_M_THREADS_PER_INST, "WRN",
	 "make the branch condition uniform per warp, or give idle lanes work", rule_divergence},
	{"local_memory_spills", GL_M_LLD_REQ " + " GL_M_LST_REQ, "WRN",
	 "lower register pressure (__launch_bounds__, fewer live values) or index local arrays with constants",
	 rule_local},
	{"low_occupancy", "registers, shared memory, block size (occupancy calculator), the latency bound", "WRN",
	 "use fewer registers or less shared memory per block (gpulab occupancy)", rule_occupancy},
	{"tail_effect", "grid size, blocks per SM, SM count", "OPT",
	 "size the grid to a multiple of the blocks one wave holds, or give each block more work", rule_tail},
	{"roofline", "FLOPs, L1, L2 and DRAM bytes, the estimate's bounds", "INF",
	 "memory-bound: move fewer bytes (reuse through shared memory, coalesce); compute-bound: fewer or cheaper "
	 "instructions",
	 rule_roofline},
	{0},
};
