/* cmd_import.c — `gpulab import FILE...`: store the runs of spool files (written beside the database
 * when it stayed locked by other gpulab commands past the wait bound) in the database. */
#include <stdio.h>

#include "cli.h"
#include "store/store.h"

static const struct gl_cmd *self(void);

static int exec_import(struct gl_ctx *ctx, int argc, char **argv)
{
	int c;
	optind = 1;
	while ((c = gl_getopt(ctx, self(), argc, argv, "", NULL)) != -1)
		if (c == 'h' || c == '?')
			return c == 'h' ? 'h' : ctx->err.status;
	if (optind >= argc)
		return gl_usage_error(ctx, self(), "import needs the FILE to import (a spool file named in the "
				      "message of the command that wrote it)");
	struct gl_store *store = NULL;
	int rc = gl_store_open(ctx->db_path, 0, &store, &ctx->err);
	for (int i = optind; rc == GL_OK && i < argc; i++) {
		int imported = 0, skipped = 0;
		rc = gl_store_import(store, argv[i], &imported, &skipped, &ctx->err);
		if (rc == GL_OK)
			printf("imported %d run%s from %s into %s (%d already stored)\n", imported,
			       imported == 1 ? "" : "s", argv[i], gl_store_file(store), skipped);
	}
	gl_store_close(store);
	return rc;
}

const struct gl_cmd gl_cmd_import_entry = {
	.name = "import",
	.usage = "FILE... [--db PATH]",
	.summary = "store the runs of a spool file (written when the database stayed locked)",
	.help = "When other gpulab commands keep the database locked longer than GPULAB_LOCK_WAIT_S seconds\n"
		"(default 600), a finished run is saved to a spool file beside the database instead, and the\n"
		"message names it.  'gpulab import FILE' stores its runs (with their launches, metrics and\n"
		"traces) in one transaction; runs already stored are skipped, so importing twice is harmless.\n"
		"FILE is only read: remove it afterwards.\n",
	.exec = exec_import,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_import_entry;
}
