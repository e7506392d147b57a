/* tmp_fixture.h — what the store's tests share: a temporary directory, paths inside it, and whole
 * files read back (through gl_read_file) for byte-identical comparisons. */
#ifndef GL_TMP_FIXTURE_H
#define GL_TMP_FIXTURE_H

#include <stdio.h>

#include "common/util.h"

static char tmpdir[256];

/* tmpdir/name; eight results stay valid at once. */
static const char *tmp_path(const char *name)
{
	static char buf[8][512];
	static int k;
	char *p = buf[k++ % 8];
	snprintf(p, 512, "%s/%s", tmpdir, name);
	return p;
}

/* The whole file and its length; NULL (and *n = 0) when it cannot be read, e.g. a directory. */
static char *slurp(const char *path, size_t *n)
{
	char *text = NULL;
	*n = 0;
	return gl_read_file(path, &text, n) ? NULL : text;
}

#endif
