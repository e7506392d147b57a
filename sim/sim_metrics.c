/* sim_metrics.c — the simulator's counts under Nsight Compute's metric names.  The base set is always
 * reported; tensor-core, cp.async, atomic and local-memory metrics only when the kernel used them. */
#include "sim.h"

#include <math.h>
#include <string.h>

#include <stddef.h>

/* Every metric the simulator stores, with its counter: the one list of them (lessons check names
 * against it).  `used`: reported only when the kernel used it (tensor cores, cp.async, atomics, local). */
static const struct {
	const char *name;
	size_t counter; /* offsetof(struct gl_sim_counters, ...) */
	bool used;
	const char *unit;
} metrics[] = {
#define C(f) offsetof(struct gl_sim_counters, f)
	{GL_M_GLD_REQ, C(gld_req), false, "request"},
	{GL_M_GLD_SECT, C(gld_sect), false, "sector"},
	{GL_M_GST_REQ, C(gst_req), false, "request"},
	{GL_M_GST_SECT, C(gst_sect), false, "sector"},
	{GL_M_SLD_INST, C(sld_inst), false, "inst"},
	{GL_M_SST_INST, C(sst_inst), false, "inst"},
	{GL_M_SLD_WF, C(sld_wf), false, "wavefront"},
	{GL_M_SST_WF, C(sst_wf), false, "wavefront"},
	{GL_M_SLD_CONF, C(sld_conf), false, "conflict"},
	{GL_M_SST_CONF, C(sst_conf), false, "conflict"},
	{GL_M_INST, C(inst), false, "inst"},
	{GL_M_THREAD_INST, C(thread_inst), false, "inst"},
	{"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", C(ffma), false, "inst"},
	{"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", C(fadd), false, "inst"},
	{"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", C(fmul), false, "inst"},
	{"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", C(dfma), true, "inst"},
	{"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", C(dadd), true, "inst"},
	{"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", C(dmul), true, "inst"},
	{"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", C(hfma), true, "inst"},
	{"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", C(hadd), true, "inst"},
	{"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", C(hmul), true, "inst"},
	{"smsp__inst_executed_pipe_tensor_op_hmma.sum", C(mma_inst), true, "inst"},
	{"smsp__inst_executed_op_ldsm.sum", C(ldsm_inst), true, "inst"},
	{"smsp__inst_executed_op_ldgsts.sum", C(ldgsts_inst), true, "inst"},
	/* LDGSTS (cp.async): the l1tex__t_* forms exist only per cache mode; the sass forms cover both */
	{"smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", C(ldgsts_req), true, "request"},
	{"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", C(ldgsts_sect), true, "sector"},
	{"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", C(ldgsts_sst_wf), true, "wavefront"},
	{"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", C(gatom_req), true, "request"},
	{"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", C(gatom_sect), true, "sector"},
	{"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", C(gred_req), true, "request"},
	{"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", C(gred_sect), true, "sector"},
	{"smsp__inst_executed_op_shared_atom.sum", C(satom_inst), true, "inst"},
	{"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", C(lld_req), true, "request"},
	{"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", C(lld_sect), true, "sector"},
	{"l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", C(lst_req), true, "request"},
	{"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", C(lst_sect), true, "sector"},
#undef C
};

const char *gl_sim_metric_name(size_t i)
{
	return i < sizeof metrics / sizeof metrics[0] ? metrics[i].name : NULL;
}

void gl_sim_metrics(const struct gl_sim_result *res, struct gl_metrics *out)
{
	double s = res->scale > 0 ? res->scale : 1.0;
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
		uint64_t v;
		memcpy(&v, (const char *)&res->c + metrics[i].counter, sizeof v);
		if (v || !metrics[i].used)
			gl_metrics_set(out, metrics[i].name, s == 1.0 ? (double)v : round((double)v * s), metrics[i].unit);
	}
}
