/* guidance_rules.c — the rules table: every metric gpulab reports has a rule that explains it.
 * Thresholds follow Nsight Compute's rules where they are public (docs/insights.md). */
#include "guidance.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "common/metrics.h"

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

/* Uncoalesced global accesses: sectors per request against the ideal for the access width (the
 * sectors the active lanes' bytes fill when adjacent: 4 for 32 lanes x 4 bytes).  Fires when at
 * least a fifth of the sectors are excess; the speedup bound is the excess share of the sectors. */
static bool uncoalesced(const struct gl_rule_input *in, struct gl_guidance *out, const char *req_m, const char *sect_m,
			const char *ideal_m, const char *what)
{
	double req = mv(in, req_m), sect = mv(in, sect_m), ideal = mv(in, ideal_m);
	if (!(req > 0) || !(sect > 0))
		return false;
	const char *assumed = "";
	if (isnan(ideal)) { /* a GPU's counters have no ideal: assume full warps of 4-byte accesses */
		ideal = 4 * req;
		assumed = " (assuming full warps of 4-byte accesses)";
	}
	double excess = sect - ideal;
	if (excess < 0.2 * sect)
		return false;
	snprintf(out->metric, sizeof out->metric, "%s", sect_m);
	out->value = sect / req;
	out->estimated_speedup = excess / sect;
	snprintf(out->message, sizeof out->message,
		 "global %s: %.1f sectors per request against an ideal of %.1f for their width%s; %.0f%% of the %.0f "
		 "sectors are excess traffic",
		 what, sect / req, ideal / req, assumed, 100 * excess / sect, sect);
	return true;
}

static bool rule_gld(const struct gl_rule_input *in, struct gl_guidance *out)
{
	return uncoalesced(in, out, GL_M_GLD_REQ, GL_M_GLD_SECT, GL_M_GLD_IDEAL, "loads");
}

static bool rule_gst(const struct gl_rule_input *in, struct gl_guidance *out)
{
	return uncoalesced(in, out, GL_M_GST_REQ, GL_M_GST_SECT, GL_M_GST_IDEAL, "stores");
}

/* Shared bank conflicts, as Nsight Compute's SharedMemoryConflicts: conflicts are at least 10% of the
 * wavefronts; removing them saves that share of the shared-memory wavefronts. */
static bool conflicts(const struct gl_rule_input *in, struct gl_guidance *out, const char *wf_m, const char *conf_m,
		      double inst, const char *what)
{
	double wf = mv(in, wf_m), conf = mv(in, conf_m);
	if (!(wf > 0) || !(inst > 0) || !(conf >= 0.10 * wf))
		return false;
	snprintf(out->metric, sizeof out->metric, "%s", conf_m);
	out->value = conf;
	out->estimated_speedup = conf / wf;
	snprintf(out->message, sizeof out->message,
		 "shared %s: %.1f wavefronts per instruction (ideal %.1f); %.0f%% of the %.0f wavefronts are bank "
		 "conflicts",
		 what, wf / inst, (wf - conf) / inst, 100 * conf / wf, wf);
	return true;
}

static bool rule_sld(const struct gl_rule_input *in, struct gl_guidance *out)
{
	/* ldmatrix (LDSM) wavefronts are counted with the loads, so are its instructions */
	return conflicts(in, out, GL_M_SLD_WF, GL_M_SLD_CONF, gl_metrics_shared_ld_requests(&in->l->metrics), "loads");
}

static bool rule_sst(const struct gl_rule_input *in, struct gl_guidance *out)
{
	return conflicts(in, out, GL_M_SST_WF, GL_M_SST_CONF, mv(in, GL_M_SST_INST), "stores");
}

/* Global atomics serialize per address at the L2: many atomic requests on few distinct sectors (the
 * launch's written footprint bounds the addresses they can reach) wait for each other.  Fires when
 * atomics are at least a tenth of the global requests and each written sector takes 64 or more. */
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

/* Divergence: average active threads per executed warp instruction (Nsight Compute's
 * smsp__thread_inst_executed_per_inst_executed.ratio); fires below 24 of 32. */
static bool rule_divergence(const struct gl_rule_input *in, struct gl_guidance *out)
{
	double r = mv(in, GL_M_THREADS_PER_INST);
	if (isnan(r) && m0(in, GL_M_INST) > 0)
		r = m0(in, GL_M_THREAD_INST) / m0(in, GL_M_INST);
	if (isnan(r) || r >= 24)
		return false;
	snprintf(out->metric, sizeof out->metric, "%s", GL_M_THREADS_PER_INST);
	out->value = r;
	snprintf(out->message, sizeof out->message,
		 "%.1f of 32 threads are active per warp instruction on average (%.0f%% SIMT efficiency): branches "
		 "diverge within warps or warps run partly empty",
		 r, 100 * r / 32);
	return true;
}

/* Local memory: register spills or arrays the compiler could not keep in registers. */
static bool rule_local(const struct gl_rule_input *in, struct gl_guidance *out)
{
	double req = m0(in, GL_M_LLD_REQ) + m0(in, GL_M_LST_REQ), sect = m0(in, GL_M_LLD_SECT) + m0(in, GL_M_LST_SECT);
	if (!(req > 0))
		return false;
	snprintf(out->metric, sizeof out->metric, "%s", GL_M_LLD_REQ);
	out->value = req;
	double l2 = in->est->l2_bytes / 32;
	out->estimated_speedup = l2 > 0 ? sect / l2 : NAN;
	snprintf(out->message, sizeof out->message,
		 "%.0f local-memory requests (%.0f sectors, %.0f%% of the L1/L2 sectors): register spills or a "
		 "dynamically indexed local array",
		 req, sect, l2 > 0 ? 100 * sect / l2 : 0);
	return true;
}

/* Occupancy: fewer resident warps than the model needs to hide latency, or none at all. */
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
	if (o->pct >= GL_EST_OCC_HIDE_PCT)
		return false;
	out->estimated_speedup = 1 - o->pct / GL_EST_OCC_HIDE_PCT; /* the memory bounds' slowdown in the model */
	snprintf(out->message, sizeof out->message,
		 "theoretical occupancy on %s is %.1f%% (%d of %d warps per SM, %d blocks), limited by %s",
		 in->est->gpu->name, o->pct, o->warps_per_sm, o->max_warps_per_sm, o->blocks_per_sm, lim);
	return true;
}

/* Tail effect: the last wave of blocks is partly empty, or the grid does not fill one wave. */
static bool rule_tail(const struct gl_rule_input *in, struct gl_guidance *out)
{
	const struct gl_estimate *e = in->est;
	if (!(e->waves > 0) || e->wave_factor < 1.10)
		return false;
	double per_wave = (double)e->occ.blocks_per_sm * e->gpu->sm_count;
	snprintf(out->metric, sizeof out->metric, "launch.waves_per_multiprocessor");
	out->value = e->waves;
	out->estimated_speedup = 1 - 1 / e->wave_factor;
	if (e->waves < 1)
		snprintf(out->message, sizeof out->message,
			 "the grid's %.0f blocks keep %.0f of the %d SMs of %s busy; the others idle",
			 e->waves * per_wave, e->waves * per_wave, e->gpu->sm_count, e->gpu->name);
	else
		snprintf(out->message, sizeof out->message,
			 "%.2f waves of %.0f blocks on %s: the last wave is %.0f%% full, so %.0f%% of the time is a "
			 "partly idle GPU",
			 e->waves, per_wave, e->gpu->name, 100 * (e->waves - floor(e->waves)), 100 * (1 - 1 / e->wave_factor));
	return true;
}

/* Roofline: which resource bounds the estimate, and where the launch sits against the ridge point. */
static bool rule_roofline(const struct gl_rule_input *in, struct gl_guidance *out)
{
	const struct gl_estimate *e = in->est;
	if (isnan(e->time_us) || !(e->bound_us[e->bound] > 0))
		return false;
	const struct gl_gpu_model *g = e->gpu;
	bool tensor = e->tensor_flops > 0;
	double ridge = (tensor ? g->tensor_tflops : g->fp32_tflops) * 1e3 / g->dram_gbs;
	bool memory = e->bound == GL_BOUND_DRAM || e->bound == GL_BOUND_L2 || e->bound == GL_BOUND_L1;
	snprintf(out->metric, sizeof out->metric, "roofline.intensity");
	out->value = e->intensity;
	snprintf(out->message, sizeof out->message,
		 "estimate (model) on %s: %.2f us, %s-bound by %s; %.3g FLOP per DRAM byte against a ridge of %.0f",
		 g->name, e->time_us, memory ? "memory" : "compute", gl_bound_name(e->bound), e->intensity, ridge);
	return true;
}

/* The value of a choice parameter in params_json ("layout":"nchw"), or false (common/json.h's reader). */
static bool param_choice(const struct gl_launch_record *l, const char *name, char *out, size_t n)
{
	return gl_json_flat_get(l->params_json, name, out, n);
}

/* A tensor layout the launch was run in (conv2d's --layout) while its global accesses are uncoalesced:
 * the layout decides which index is contiguous, so the same kernel may coalesce in the other one (an
 * implicit GEMM wants the channels, its K dimension and the output's N dimension, contiguous: NHWC;
 * a thread-per-output kernel whose lanes walk the output's width wants NCHW). */
static bool rule_layout(const struct gl_rule_input *in, struct gl_guidance *out)
{
	char layout[16];
	if (!param_choice(in->l, "layout", layout, sizeof layout))
		return false;
	struct gl_guidance ld = {0}, st = {0};
	bool bad_ld = rule_gld(in, &ld), bad_st = rule_gst(in, &st);
	if (!bad_ld && !bad_st)
		return false;
	const struct gl_guidance *worse = bad_ld && (!bad_st || ld.estimated_speedup >= st.estimated_speedup) ? &ld : &st;
	snprintf(out->metric, sizeof out->metric, "%s", worse->metric);
	out->value = worse->value;
	out->estimated_speedup = NAN; /* the other layout changes the kernel's accesses, not only these */
	snprintf(out->message, sizeof out->message,
		 "in the %s layout this kernel's global %s are uncoalesced (%.1f sectors per request); the layout "
		 "decides which index is contiguous, and a warp's lanes should walk it (an implicit GEMM's: the "
		 "channels, NHWC; lanes along an image row: NCHW)",
		 layout, worse == &ld ? "loads" : "stores", worse->value);
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
	{"low_occupancy", "registers, shared memory, block size (occupancy calculator)", "WRN",
	 "use fewer registers or less shared memory per block, or change the block size (gpulab occupancy)",
	 rule_occupancy},
	{"tail_effect", "grid size, blocks per SM, SM count", "OPT",
	 "size the grid to a multiple of the blocks one wave holds, or give each block more work", rule_tail},
	{"tensor_layout", "params layout, the global coalescing rules", "OPT",
	 "run the variant with --layout nchw and nhwc and keep the one its lanes walk",
	 rule_layout},
	{"roofline", "FLOPs, DRAM bytes, the estimate's bounds", "INF",
	 "memory-bound: move fewer bytes (reuse through shared memory, coalesce); compute-bound: fewer or cheaper "
	 "instructions",
	 rule_roofline},
	{0},
};
