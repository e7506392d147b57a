/* cmd_list.c — `gpulab list [TOPIC]`: the topics, or one topic's variants and parameters. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common/json.h"
#include "kernels/registry.h"

static const struct gl_cmd *self(void);

static void list_topics_table(void)
{
	for (const struct gl_topic *const *t = gl_topics; *t; t++) {
		printf("%-14s %s\n", (*t)->name, (*t)->summary);
		printf("%-14s variants:", "");
		for (int i = 0; i < (*t)->nvariants; i++)
			printf(" %s", (*t)->variants[i].name);
		printf("\n");
	}
	printf("\n'gpulab list TOPIC' shows a topic's variants and parameters.\n");
}

/* The width of the topic's longest variant name, at least 12, so the columns line up. */
static int variant_width(const struct gl_topic *t)
{
	int w = 12;
	for (int i = 0; i < t->nvariants; i++)
		if ((int)strlen(t->variants[i].name) > w)
			w = (int)strlen(t->variants[i].name);
	return w;
}

static void show_topic_table(const struct gl_topic *t)
{
	int w = variant_width(t);
	printf("%s — %s\n\nvariants:\n", t->name, t->summary);
	for (int i = 0; i < t->nvariants; i++)
		printf("  %-*s %s\n", w, t->variants[i].name, t->variants[i].summary);
	struct gl_problem defaults;
	gl_problem_defaults(t, &defaults);
	bool dynamic = false;
	printf("\nresources (ptxas -v): %*ssm_80%*ssm_90\n", w - 7, "", 24, "");
	for (int i = 0; i < t->nvariants; i++) {
		printf("  %-*s", w, t->variants[i].name);
		static const char *const arches[] = {"sm_80", "sm_90"};
		unsigned dyn = gl_topic_dyn_smem(t, &t->variants[i], &defaults);
		dynamic |= dyn > 0;
		for (int a = 0; a < 2; a++) {
			struct gl_resources r;
			char smem[32];
			gl_topic_resources(t, t->variants[i].entry, arches[a], &r);
			if (dyn)
				snprintf(smem, sizeof smem, "%d+%u", r.static_smem, dyn);
			else
				snprintf(smem, sizeof smem, "%d", r.static_smem);
			printf("  %3d regs %7s B smem %3d B spill", r.regs, smem, r.spill_stores + r.spill_loads);
		}
		printf("\n");
	}
	if (dynamic)
		printf("  (smem A+B: A bytes static, B dynamic at the default sizes; the dynamic part grows with the "
		       "problem)\n");
	printf("\nparameters:\n");
	for (int i = 0; i < t->nparams; i++) {
		const struct gl_param *p = &t->params[i];
		if (p->choices) {
			printf("  --%-10s %s (default %s)\n", p->name, p->help, p->choices[p->def]);
			continue;
		}
		printf("  --%-10s %s (default %ld, %ld to %ld)%s\n", p->name, p->help, p->def, p->min, p->max,
		       p->is_size ? "; set by --size" : "");
	}
	printf("\nexample: gpulab run %s --variant all\n", t->name);
}

static void topic_json(struct gl_json *j, const struct gl_topic *t)
{
	gl_json_begin_object(j, NULL);
	gl_json_string(j, "name", t->name);
	gl_json_string(j, "summary", t->summary);
	gl_json_begin_array(j, "variants");
	for (int i = 0; i < t->nvariants; i++) {
		gl_json_begin_object(j, NULL);
		gl_json_string(j, "name", t->variants[i].name);
		gl_json_string(j, "entry", t->variants[i].entry);
		gl_json_string(j, "summary", t->variants[i].summary);
		static const char *const arches[] = {"sm_80", "sm_90"};
		gl_json_begin_object(j, "resources");
		for (int a = 0; a < 2; a++) {
			struct gl_resources r;
			gl_topic_resources(t, t->variants[i].entry, arches[a], &r);
			gl_json_begin_object(j, arches[a]);
			gl_json_int(j, "registers", r.regs);
			gl_json_int(j, "static_smem", r.static_smem);
			gl_json_int(j, "spill_stores", r.spill_stores);
			gl_json_int(j, "spill_loads", r.spill_loads);
			gl_json_end_object(j);
		}
		gl_json_end_object(j);
		struct gl_problem defaults;
		gl_problem_defaults(t, &defaults);
		gl_json_int(j, "dynamic_smem", gl_topic_dyn_smem(t, &t->variants[i], &defaults));
		gl_json_end_object(j);
	}
	gl_json_end_array(j);
	gl_json_begin_array(j, "parameters");
	for (int i = 0; i < t->nparams; i++) {
		const struct gl_param *p = &t->params[i];
		gl_json_begin_object(j, NULL);
		gl_json_string(j, "name", p->name);
		gl_json_string(j, "help", p->help);
		if (p->choices) {
			gl_json_string(j, "default", p->choices[p->def]);
			gl_json_begin_array(j, "choices");
			for (int c = 0; p->choices[c]; c++)
				gl_json_string(j, NULL, p->choices[c]);
			gl_json_end_array(j);
			gl_json_bool(j, "size", false);
			gl_json_end_object(j);
			continue;
		}
		gl_json_int(j, "default", p->def);
		gl_json_int(j, "min", p->min);
		gl_json_int(j, "max", p->max);
		gl_json_bool(j, "size", p->is_size);
		gl_json_end_object(j);
	}
	gl_json_end_array(j);
	gl_json_end_object(j);
}

static int exec_list(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int prc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (prc)
		return prc;
	const struct gl_topic *one = NULL;
	if (args.npos && gl_topic_lookup(args.pos[0], &one, &ctx->err))
		return ctx->err.status;
	if (ctx->format == GL_FMT_JSON) {
		struct gl_json j;
		gl_json_init(&j, stdout);
		if (one) {
			topic_json(&j, one);
			return GL_OK;
		}
		gl_json_begin_array(&j, NULL);
		for (const struct gl_topic *const *t = gl_topics; *t; t++)
			topic_json(&j, *t);
		gl_json_end_array(&j);
		return GL_OK;
	}
	if (one)
		show_topic_table(one);
	else
		list_topics_table();
	return GL_OK;
}

const struct gl_cmd gl_cmd_list_entry = {
	.complete = "topic",
	.no_formats = GL_NO_CSV,
	.name = "list",
	.usage = "[TOPIC] [--json]",
	.summary = "list the topics, or a topic's variants and parameters",
	.help = NULL,
	.max_args = 1,
	.args_name = "one TOPIC at most",
	.exec = exec_list,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_list_entry;
}
