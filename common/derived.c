/* derived.c — FLOPs by precision and bytes per memory level from a launch's counts (derived.h). */
#include "derived.h"

#include <math.h>
#include <string.h>

static double v0(const struct gl_metrics *m, const char *name)
{
	return gl_metrics_value_or(m, name, 0);
}

static const struct {
	const char *label, *key;
	bool tensor;
} kinds[GL_FLOP_KINDS] = {
	[GL_FLOP_FP32] = {"FP32", "fp32", false},
	[GL_FLOP_FP64] = {"FP64", "fp64", false},
	[GL_FLOP_FP16] = {"FP16 (CUDA cores)", "fp16", false},
	[GL_FLOP_TC_FP16] = {"FP16 tensor", "tensor_fp16", true},
	[GL_FLOP_TC_BF16] = {"BF16 tensor", "tensor_bf16", true},
	[GL_FLOP_TC_TF32] = {"TF32 tensor", "tensor_tf32", true},
	[GL_FLOP_TC_FP64] = {"FP64 tensor", "tensor_fp64", true},
	[GL_FLOP_TC_INT8] = {"INT8 tensor (ops)", "tensor_int8", true},
};

const char *gl_flop_kind_label(enum gl_flop_kind k)
{
	return k < GL_FLOP_KINDS ? kinds[k].label : "?";
}

const char *gl_flop_kind_key(enum gl_flop_kind k)
{
	return k < GL_FLOP_KINDS ? kinds[k].key : "?";
}

bool gl_flop_kind_is_tensor(enum gl_flop_kind k)
{
	return k < GL_FLOP_KINDS && kinds[k].tensor;
}

void gl_flops_of(const struct gl_metrics *m, struct gl_flops *f)
{
	memset(f, 0, sizeof *f);
	f->kind[GL_FLOP_FP32] = gl_metrics_fp32_flops(m);
	f->kind[GL_FLOP_FP64] = 2 * v0(m, GL_M_DFMA) + v0(m, GL_M_DADD) + v0(m, GL_M_DMUL);
	f->kind[GL_FLOP_FP16] = 2 * v0(m, GL_M_HFMA) + v0(m, GL_M_HADD) + v0(m, GL_M_HMUL);
	f->kind[GL_FLOP_TC_FP16] = v0(m, GL_M_TENSOR_OPS_F16_F32) + v0(m, GL_M_TOPS_F16_F16);
	f->kind[GL_FLOP_TC_BF16] = v0(m, GL_M_TOPS_BF16);
	f->kind[GL_FLOP_TC_TF32] = v0(m, GL_M_TOPS_TF32);
	f->kind[GL_FLOP_TC_FP64] = v0(m, GL_M_TOPS_F64);
	f->kind[GL_FLOP_TC_INT8] = v0(m, GL_M_TOPS_I8);
	double tensor = 0;
	for (int k = 0; k < GL_FLOP_KINDS; k++)
		if (kinds[k].tensor)
			tensor += f->kind[k];
	double hmma = v0(m, GL_M_HMMA_INST);
	if (tensor == 0 && hmma > 0) { /* only the instruction count: an HMMA.16816 of fp16 is 2*16*8*16 */
		f->kind[GL_FLOP_TC_FP16] = 4096.0 * hmma;
		f->tensor_assumed = true;
	}
	for (int k = 0; k < GL_FLOP_KINDS; k++) {
		if (kinds[k].tensor)
			f->tensor += f->kind[k];
		else
			f->cuda_core += f->kind[k];
	}
	f->total = f->cuda_core + f->tensor;
}

void gl_traffic_of(const struct gl_metrics *m, struct gl_traffic *t)
{
	memset(t, 0, sizeof *t);
	t->ldgsts_sectors = v0(m, GL_M_LDGSTS_SECT);
	t->ld_sectors = v0(m, GL_M_GLD_SECT) + t->ldgsts_sectors;
	t->st_sectors = v0(m, GL_M_GST_SECT);
	t->atom_sectors = v0(m, GL_M_GATOM_SECT) + v0(m, GL_M_GRED_SECT);
	t->local_sectors = v0(m, GL_M_LLD_SECT) + v0(m, GL_M_LST_SECT);
	t->shared_wavefronts = v0(m, GL_M_SLD_WF) + v0(m, GL_M_SST_WF) + v0(m, GL_M_SST_LDGSTS_WF);
	double sectors = t->ld_sectors + t->st_sectors + t->atom_sectors + t->local_sectors;
	t->l1_bytes = 32.0 * sectors + 128.0 * t->shared_wavefronts;
	const double *miss = gl_metrics_get(m, GL_M_L1_MISS_SECT);
	t->l1_modelled = miss != NULL;
	/* cp.async.cg bypasses L1, .ca allocates in it: the model's misses include the .ca ones, and every
	 * .cg sector goes to L2, so without the model every load sector does */
	double ld_l2 = miss ? *miss : t->ld_sectors;
	t->l2_bytes = 32.0 * (ld_l2 + t->st_sectors + t->atom_sectors + t->local_sectors);
	const double *ul = gl_metrics_get(m, GL_M_UNIQ_LD_SECT), *us = gl_metrics_get(m, GL_M_UNIQ_ST_SECT);
	t->footprint_ld = ul ? *ul : NAN;
	t->footprint_st = us ? *us : NAN;
	t->global_bytes = 32.0 * (t->ld_sectors + t->st_sectors + t->atom_sectors);
}
