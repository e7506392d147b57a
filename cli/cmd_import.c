/* cmd_import.c — `gpulab import FILE...`: store the runs of spool files (written beside the database
 * when it stayed locked by other gpulab commands past the wait bound) in the database. */
#include <stdio.h>

#include "cli.h"
#include "store/store.h"

static const struct gl_cmd *self(void);

static int exec_import(struct gl_ctx *ctx, int argc, char **argv)
{
	struct gl_args args;
	int prc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (prc)
		return prc;
	struct gl_store *store = NULL;
	int rc = gl_store_open(ctx->db_path, 0, &store, &ctx->err);
	for (int i = 0; rc == GL_OK && i < args.npos; i++) {
		int imported = 0, skipped = 0;
		rc = gl_store_import(store, args.pos[i], &imported, &skipped, &ctx->err);
		if (rc == GL_OK)
			printf("imported %d run%s from %s into %s (%d already stored)\n", imported,
			       imported == 1 ? "" : "s", args.pos[i], gl_store_file(store), skipped);
	}
	gl_store_close(store);
	return rc;
}

const struct gl_cmd gl_cmd_import_entry = {
	.no_formats = GL_TEXT_ONLY,
	.complete = "file",
	.name = "import",
	.usage = "FILE... [--db PATH]",
	.summary = "store the runs of a spool file (written when the database stayed locked)",
	.help = "When other gpulab commands keep the database locked longer than GPULAB_LOCK_WAIT_S seconds\n"
		"(default 600), a finished run is saved to a spool file beside the database instead, and the\n"
		"message names it.  'gpulab import FILE' stores its runs (with their launches, metrics and\n"
		"traces) in one transaction; runs already stored are skipped, so importing twice is harmless.\n"
		"FILE is only read: remove it afterwards.\n",
	.min_args = 1,
	.max_args = -1,
	.args_missing = "import needs the FILE to import (a spool file named in the message of the command that "
			"wrote it)",
	.exec = exec_import,
};

static const struct gl_cmd *self(void)
{
	return &gl_cmd_import_entry;
}
