/* sim_metrics.c — the simulator's counts under Nsight Compute's metric names.  The base set is always
 * reported; tensor-core, cp.async, atomic and local-memory metrics only when the kernel used them. */
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stddef.h>
#include <stdint.h>

/* Every metric the simulator stores, with its counter: the one list of them (lessons check names
 * against it).  `sass`: with a SASS mapping the value is that counter's SASS estimate instead
 * (docs/sim.md); `used`: reported only when the kernel used it (tensor cores, cp.async, atomics, local). */
#define NONE SIZE_MAX
static const struct {
	const char *name;
	size_t counter, sass; /* offsetof(struct gl_sim_counters, ...) */
	bool used;
	const char *unit;
} metrics[] = {
#define C(f) offsetof(struct gl_sim_counters, f)
	{GL_M_GLD_REQ, C(gld_req), NONE, false, "request"},
	{GL_M_GLD_SECT, C(gld_sect), NONE, false, "sector"},
	{GL_M_GST_REQ, C(gst_req), NONE, false, "request"},
	{GL_M_GST_SECT, C(gst_sect), NONE, false, "sector"},
	{GL_M_SLD_INST, C(sld_inst), NONE, false, "inst"},
	{GL_M_SST_INST, C(sst_inst), NONE, false, "inst"},
	{GL_M_SLD_WF, C(sld_wf), NONE, false, "wavefront"},
	{GL_M_SST_WF, C(sst_wf), NONE, false, "wavefront"},
	{GL_M_SLD_CONF, C(sld_conf), NONE, false, "conflict"},
	{GL_M_SST_CONF, C(sst_conf), NONE, false, "conflict"},
	/* With a SASS mapping the instruction totals are estimates of the SASS ones (docs/sim.md) */
	{GL_M_INST, C(inst), C(sass_inst), false, "inst"},
	{GL_M_THREAD_INST, C(thread_inst), C(sass_thread_inst), false, "inst"},
	/* gpulab's own names (not Nsight Compute metrics): the counts once per PTX instruction */
	{GL_M_PTX_GLD_REQ, C(ptx_gld_req), NONE, false, "request"},
	{GL_M_PTX_GLD_SECT, C(ptx_gld_sect), NONE, false, "sector"},
	{GL_M_PTX_GST_REQ, C(ptx_gst_req), NONE, false, "request"},
	{GL_M_PTX_GST_SECT, C(ptx_gst_sect), NONE, false, "sector"},
	{GL_M_PTX_SLD_INST, C(ptx_sld_inst), NONE, false, "inst"},
	{GL_M_PTX_SST_INST, C(ptx_sst_inst), NONE, false, "inst"},
	{GL_M_PTX_SLD_WF, C(ptx_sld_wf), NONE, false, "wavefront"},
	{GL_M_PTX_SST_WF, C(ptx_sst_wf), NONE, false, "wavefront"},
	{GL_M_PTX_SLD_CONF, C(ptx_sld_conf), NONE, false, "conflict"},
	{GL_M_PTX_SST_CONF, C(ptx_sst_conf), NONE, false, "conflict"},
	{GL_M_PTX_INST, C(inst), NONE, false, "inst"},
	{GL_M_PTX_THREAD_INST, C(thread_inst), NONE, false, "inst"},
	{"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", C(ffma), NONE, false, "inst"},
	{"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", C(fadd), NONE, false, "inst"},
	{"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", C(fmul), NONE, false, "inst"},
	{"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", C(dfma), NONE, true, "inst"},
	{"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", C(dadd), NONE, true, "inst"},
	{"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", C(dmul), NONE, true, "inst"},
	{"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", C(hfma), NONE, true, "inst"},
	{"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", C(hadd), NONE, true, "inst"},
	{"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", C(hmul), NONE, true, "inst"},
	{GL_M_HMMA_INST, C(mma_inst), NONE, true, "inst"},
	/* the same count summed per SM (Nsight Compute's sm__ roll-up): one per mma.sync m16n8k16 */
	{"sm__inst_executed_pipe_tensor_op_hmma.sum", C(mma_inst), NONE, true, "inst"},
	{"smsp__inst_executed_pipe_tensor_op_imma.sum", C(imma_inst), NONE, true, "inst"},
	{"smsp__inst_executed_pipe_tensor_op_dmma.sum", C(dmma_inst), NONE, true, "inst"},
	/* tensor FLOPs: the tensor path's math ops, two per multiply-add (docs/sim.md).  Nsight Compute
	 * names fp16 ones per chip (GA100: sm__ops_path_tensor_src_fp16_dst_fp32, GH100:
	 * sm__ops_path_tensor_op_hmma_src_fp16_dst_fp32), no name is on both, so they go under gpulab's own */
	{GL_M_TENSOR_OPS_F16_F32, C(tops_f16_f32), NONE, true, "math_op"},
	{GL_M_PTX_PREFIX "ops_path_tensor_src_fp16_dst_fp16.sum", C(tops_f16_f16), NONE, true, "math_op"},
	{"sm__ops_path_tensor_src_bf16_dst_fp32.sum", C(tops_bf16_f32), NONE, true, "math_op"},
	{"sm__ops_path_tensor_src_tf32_dst_fp32.sum", C(tops_tf32_f32), NONE, true, "math_op"},
	{"sm__ops_path_tensor_src_fp64.sum", C(tops_f64), NONE, true, "math_op"},
	{"sm__ops_path_tensor_src_int8.sum", C(tops_i8), NONE, true, "math_op"},
	{GL_M_LDSM_INST, C(ldsm_inst), NONE, true, "inst"},
	{"smsp__inst_executed_op_ldgsts.sum", C(ldgsts_inst), NONE, true, "inst"},
	/* LDGSTS (cp.async): the l1tex__t_* forms exist only per cache mode; the sass forms cover both */
	{GL_M_LDGSTS_REQ, C(ldgsts_req), NONE, true, "request"},
	{GL_M_LDGSTS_SECT, C(ldgsts_sect), NONE, true, "sector"},
	{"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", C(ldgsts_sst_wf), NONE, true, "wavefront"},
	{"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", C(gatom_req), NONE, true, "request"},
	{"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", C(gatom_sect), NONE, true, "sector"},
	{"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", C(gred_req), NONE, true, "request"},
	{"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", C(gred_sect), NONE, true, "sector"},
	{"smsp__inst_executed_op_shared_atom.sum", C(satom_inst), NONE, true, "inst"},
	{GL_M_GLD_IDEAL, C(gld_ideal), NONE, false, "sector"},
	{GL_M_GST_IDEAL, C(gst_ideal), NONE, false, "sector"},
	{GL_M_UNIQ_LD_SECT, C(uniq_ld), NONE, false, "sector"},
	{GL_M_UNIQ_ST_SECT, C(uniq_st), NONE, false, "sector"},
	/* textures and surfaces: instructions, and one request per instruction (docs/sim.md: no sectors) */
	{"smsp__inst_executed_op_texture.sum", C(tex_inst), NONE, true, "inst"},
	{"l1tex__t_requests_pipe_tex_mem_texture.sum", C(tex_inst), NONE, true, "request"},
	{"l1tex__t_requests_pipe_tex_mem_texture_op_tex.sum", C(tex_tex), NONE, true, "request"},
	{"l1tex__t_requests_pipe_tex_mem_texture_op_ld.sum", C(tex_tld), NONE, true, "request"},
	{"smsp__inst_executed_op_surface_ld.sum", C(surf_ld), NONE, true, "inst"},
	{"l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum", C(surf_ld), NONE, true, "request"},
	{"smsp__inst_executed_op_surface_st.sum", C(surf_st), NONE, true, "inst"},
	{"l1tex__t_requests_pipe_tex_mem_surface_op_st.sum", C(surf_st), NONE, true, "request"},
	{"smsp__inst_executed_op_surface_red.sum", C(surf_red), NONE, true, "inst"},
	{"l1tex__t_requests_pipe_tex_mem_surface_op_red.sum", C(surf_red), NONE, true, "request"},
	{GL_M_GLD_LINES, C(gld_lines), NONE, false, "line"},
	{GL_M_GST_LINES, C(gst_lines), NONE, false, "line"},
	{GL_M_L1_MISS_SECT, C(l1_miss), NONE, false, "sector"},
	{"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", C(lld_req), NONE, true, "request"},
	{"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", C(lld_sect), NONE, true, "sector"},
	{"l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", C(lst_req), NONE, true, "request"},
	{"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", C(lst_sect), NONE, true, "sector"},
#undef C
};

const char *gl_sim_metric_name(size_t i)
{
	return i < sizeof metrics / sizeof metrics[0] ? metrics[i].name : NULL;
}

const char *gl_sim_metric_unit(size_t i)
{
	return i < sizeof metrics / sizeof metrics[0] ? metrics[i].unit : NULL;
}

static uint64_t counter(const struct gl_sim_counters *c, size_t offset)
{
	uint64_t v;
	memcpy(&v, (const char *)c + offset, sizeof v);
	return v;
}

void gl_sim_metrics(const struct gl_sim_result *res, struct gl_metrics *out)
{
	double s = res->scale > 0 ? res->scale : 1.0;
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
		uint64_t v = counter(&res->c, metrics[i].counter);
		/* A CTA range keeps the SASS estimate unrounded (exact: a multiple of 1/256), so the shards'
		 * sum rounds once, as the whole launch does (store_assemble.c). */
		if (res->sass_mapped && metrics[i].sass != NONE && res->cta_end > 0) {
			double e = (double)counter(&res->c, metrics[i].sass) / PTX_SASS_WEIGHT_ONE;
			if (e != 0 || !metrics[i].used)
				gl_metrics_set(out, metrics[i].name, e, metrics[i].unit);
			continue;
		}
		if (res->sass_mapped && metrics[i].sass != NONE) /* sass counters are in PTX_SASS_WEIGHT_ONE units */
			v = (counter(&res->c, metrics[i].sass) + PTX_SASS_WEIGHT_ONE / 2) / PTX_SASS_WEIGHT_ONE;
		if (v || !metrics[i].used)
			gl_metrics_set(out, metrics[i].name, s == 1.0 ? (double)v : round((double)v * s), metrics[i].unit);
	}
	/* where the waste is: the worst instruction of each kind (sim_spots.c), gpulab's own names without a
	 * roll-up suffix, so a multi-launch total leaves them to its launches */
	static const char *const kinds[GL_SIM_SPOTS] = {"gld", "gst", "sld", "sst"};
	for (int k = 0; k < GL_SIM_SPOTS; k++) {
		const struct gl_sim_spot *sp = &res->spots[k];
		if (!sp->waste)
			continue;
		char name[96];
		snprintf(name, sizeof name, GL_M_HOTSPOT_PREFIX "%s_ptx_line", kinds[k]);
		gl_metrics_set(out, name, sp->ptx_line, "line");
		snprintf(name, sizeof name, GL_M_HOTSPOT_PREFIX "%s_src_line", kinds[k]);
		gl_metrics_set(out, name, sp->src_line, "line");
		snprintf(name, sizeof name, GL_M_HOTSPOT_PREFIX "%s_share", kinds[k]);
		gl_metrics_set(out, name, sp->share, "ratio");
	}
	/* Nsight Compute's divergence ratio: average active threads per executed warp instruction */
	const double *inst = gl_metrics_get(out, GL_M_INST), *threads = gl_metrics_get(out, GL_M_THREAD_INST);
	if (inst && threads && *inst > 0)
		gl_metrics_set(out, GL_M_THREADS_PER_INST, *threads / *inst, "thread");
}
