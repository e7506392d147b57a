/* cmd_table.c — every gpulab subcommand, in the order `gpulab --help` lists them.
 * Adding a command: one new cli/cmd_NAME.c and one line here. */
#include <string.h>

#include "cli.h"

extern const struct gl_cmd gl_cmd_list_entry;
extern const struct gl_cmd gl_cmd_run_entry;
extern const struct gl_cmd gl_cmd_sim_entry;
extern const struct gl_cmd gl_cmd_report_entry;
extern const struct gl_cmd gl_cmd_compare_entry;
extern const struct gl_cmd gl_cmd_query_entry;
extern const struct gl_cmd gl_cmd_import_entry;
extern const struct gl_cmd gl_cmd_merge_entry;
extern const struct gl_cmd gl_cmd_sweep_entry;
extern const struct gl_cmd gl_cmd_view_entry;
extern const struct gl_cmd gl_cmd_metrics_entry;
extern const struct gl_cmd gl_cmd_devices_entry;
extern const struct gl_cmd gl_cmd_doctor_entry;
extern const struct gl_cmd gl_cmd_validate_entry;
extern const struct gl_cmd gl_cmd_lesson_entry;
extern const struct gl_cmd gl_cmd_occupancy_entry;
extern const struct gl_cmd gl_cmd_runs_entry;
extern const struct gl_cmd gl_cmd_plot_entry;
extern const struct gl_cmd gl_cmd_baseline_entry;
extern const struct gl_cmd gl_cmd_exercise_entry;
extern const struct gl_cmd gl_cmd_completion_entry;

const struct gl_cmd *const gl_cmd_table[] = {
	&gl_cmd_list_entry,
	&gl_cmd_run_entry,
	&gl_cmd_sim_entry,
	&gl_cmd_report_entry,
	&gl_cmd_compare_entry,
	&gl_cmd_query_entry,
	&gl_cmd_import_entry,
	&gl_cmd_merge_entry,
	&gl_cmd_sweep_entry,
	&gl_cmd_view_entry,
	&gl_cmd_metrics_entry,
	&gl_cmd_devices_entry,
	&gl_cmd_doctor_entry,
	&gl_cmd_validate_entry,
	&gl_cmd_lesson_entry,
	&gl_cmd_occupancy_entry,
	&gl_cmd_runs_entry,
	&gl_cmd_plot_entry,
	&gl_cmd_baseline_entry,
	&gl_cmd_exercise_entry,
	&gl_cmd_completion_entry,
	NULL,
};

const struct gl_cmd *gl_cmd_find(const char *name)
{
	for (const struct gl_cmd *const *c = gl_cmd_table; *c; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}
