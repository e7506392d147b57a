/* sweep_spec.c — a sweep's spec: `--param NAME=V1,V2` and spec files in a small subset of TOML.
 *
 * The subset (docs/sweeps.md): one `key = value` per line; `# comments` and blank lines; tables
 * `[params]` and `[slurm]` (keys before the first table are the sweep's own); a value is a "string"
 * (no escapes but \" and \\), an integer, or a one-line array of them ["a", "b"] / [256, 512].  Anything
 * else (multi-line arrays, inline tables, dotted keys, floats, dates) is refused with its line number. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sweep/sweep.h"

#define MAX_ITEMS GL_SWEEP_MAX_VALUES

struct value {
	char items[MAX_ITEMS][128];
	int n;
	bool array, string; /* string: every item was quoted */
};

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* One scalar at *pp into out; advances *pp.  Returns 0, or -1 when it is not a string or an integer. */
static int scalar(const char **pp, char *out, size_t n, bool *quoted)
{
	const char *p = skip_ws(*pp);
	size_t k = 0;
	*quoted = *p == '"';
	if (*quoted) {
		for (p++; *p && *p != '"'; p++) {
			if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
				p++;
			else if (*p == '\\')
				return -1;
			if (k + 1 < n)
				out[k++] = *p;
		}
		if (*p != '"')
			return -1;
		p++;
	} else {
		if (*p == '-' || *p == '+')
			out[k++] = *p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p) || *p == '_') {
			if (*p != '_' && k + 1 < n)
				out[k++] = *p;
			p++;
		}
	}
	out[k] = '\0';
	*pp = p;
	return 0;
}

static int parse_value(const char *p, struct value *v)
{
	bool q = false;
	memset(v, 0, sizeof *v);
	v->string = true;
	p = skip_ws(p);
	if (*p != '[') {
		if (scalar(&p, v->items[0], sizeof v->items[0], &q))
			return -1;
		v->n = 1;
		v->string = q;
	} else {
		v->array = true;
		p = skip_ws(p + 1);
		while (*p && *p != ']') {
			if (v->n == MAX_ITEMS || scalar(&p, v->items[v->n], sizeof v->items[0], &q))
				return -1;
			v->string &= q;
			v->n++;
			p = skip_ws(p);
			if (*p == ',')
				p = skip_ws(p + 1);
			else if (*p != ']')
				return -1;
		}
		if (*p != ']')
			return -1;
		p++;
	}
	p = skip_ws(p);
	return *p == '\0' || *p == '#' ? 0 : -1;
}

static int copy_string(const struct value *v, char *out, size_t n)
{
	if (v->array || !v->string || strlen(v->items[0]) >= n)
		return -1;
	snprintf(out, n, "%s", v->items[0]);
	return 0;
}

static int copy_long(const struct value *v, long *out)
{
	char *end;
	if (v->array || v->string)
		return -1;
	*out = strtol(v->items[0], &end, 10);
	return *end ? -1 : 0;
}

/* "a,b,c" from an array of strings (or a single string). */
static int copy_list(const struct value *v, char *out, size_t n)
{
	size_t len = 0;
	out[0] = '\0';
	for (int i = 0; i < v->n; i++) {
		int w = snprintf(out + len, n - len, "%s%s", i ? "," : "", v->items[i]);
		if (w < 0 || (size_t)w >= n - len)
			return -1;
		len += (size_t)w;
	}
	return v->string ? 0 : -1;
}

static int set_param(struct gl_sweep_spec *s, const char *name, const char *const *vals, int n, struct gl_err *err)
{
	int i = 0;
	while (i < s->nparams && strcmp(s->param_names[i], name) != 0)
		i++;
	if (i == GL_SWEEP_MAX_PARAMS)
		return gl_errf(err, GL_EUSAGE, "a sweep takes at most %d parameters", GL_SWEEP_MAX_PARAMS);
	if (n == 0 || n > GL_SWEEP_MAX_VALUES)
		return gl_errf(err, GL_EUSAGE, "parameter %s needs 1 to %d values", name, GL_SWEEP_MAX_VALUES);
	if (strlen(name) >= sizeof s->param_names[0])
		return gl_errf(err, GL_EUSAGE, "parameter name '%.40s...' is too long", name);
	/* numbers or a choice's name (--layout nchw); the topic's rules check them when the sweep expands */
	for (int k = 0; k < n; k++) {
		size_t len = strlen(vals[k]);
		if (len == 0 || len >= sizeof s->param_values[i][k] ||
		    strspn(vals[k], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != len)
			return gl_errf(err, GL_EUSAGE, "parameter %s: value '%.40s' is not a number or a name", name, vals[k]);
		snprintf(s->param_values[i][k], sizeof s->param_values[i][k], "%s", vals[k]);
	}
	snprintf(s->param_names[i], sizeof s->param_names[i], "%s", name);
	s->nvalues[i] = n;
	if (i == s->nparams)
		s->nparams++;
	return GL_OK;
}

int gl_sweep_spec_param(struct gl_sweep_spec *s, const char *text, struct gl_err *err)
{
	const char *eq = strchr(text, '=');
	if (!eq || eq == text || !eq[1])
		return gl_errf(err, GL_EUSAGE, "--param '%s': expected NAME=V1,V2,... (e.g. size=256,512,1024)", text);
	char name[64], buf[1024];
	const char *vals[GL_SWEEP_MAX_VALUES + 1];
	int n = 0;
	snprintf(name, sizeof name, "%.*s", (int)(eq - text), text);
	snprintf(buf, sizeof buf, "%s", eq + 1);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && n <= GL_SWEEP_MAX_VALUES;
	     tok = strtok_r(NULL, ",", &save))
		vals[n++] = tok;
	return set_param(s, name, vals, n, err);
}

static int sweep_key(struct gl_sweep_spec *s, const char *key, const struct value *v)
{
	if (strcmp(key, "topic") == 0)
		return copy_string(v, s->topic, sizeof s->topic);
	if (strcmp(key, "variants") == 0 || strcmp(key, "variant") == 0)
		return copy_list(v, s->variants, sizeof s->variants);
	if (strcmp(key, "backend") == 0)
		return copy_string(v, s->backend, sizeof s->backend);
	if (strcmp(key, "shard_ctas") == 0)
		return copy_long(v, &s->shard_ctas) || s->shard_ctas < 1 ? -1 : 0;
	return -2;
}

static int slurm_key(struct gl_sweep_spec *s, const char *key, const struct value *v)
{
	if (strcmp(key, "partition") == 0)
		return copy_string(v, s->partition, sizeof s->partition);
	if (strcmp(key, "gres") == 0)
		return copy_string(v, s->gres, sizeof s->gres);
	if (strcmp(key, "time") == 0)
		return copy_string(v, s->time, sizeof s->time);
	if (strcmp(key, "array_limit") == 0)
		return copy_long(v, &s->array_limit) || s->array_limit < 1 ? -1 : 0;
	return -2;
}

static int param_key(struct gl_sweep_spec *s, const char *key, const struct value *v, struct gl_err *err)
{
	const char *vals[MAX_ITEMS];
	for (int i = 0; i < v->n; i++)
		vals[i] = v->items[i];
	return set_param(s, key, vals, v->n, err) ? -3 : 0;
}

static int spec_line(struct gl_sweep_spec *s, char *line, char *table, size_t ntable, struct gl_err *err)
{
	char *p = (char *)skip_ws(line);
	p[strcspn(p, "\r\n")] = '\0';
	if (*p == '\0' || *p == '#')
		return 0;
	if (*p == '[') {
		char *end = strchr(p, ']');
		if (!end || *skip_ws(end + 1) != '\0' ||
		    (strncmp(p, "[params]", 8) != 0 && strncmp(p, "[slurm]", 7) != 0))
			return -1;
		snprintf(table, ntable, "%.*s", (int)(end - p - 1), p + 1);
		return 0;
	}
	size_t klen = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
	char key[64];
	const char *rest = skip_ws(p + klen);
	if (klen == 0 || klen >= sizeof key || *rest != '=')
		return -1;
	snprintf(key, sizeof key, "%.*s", (int)klen, p);
	struct value v;
	if (parse_value(rest + 1, &v))
		return -1;
	int rc = !table[0] ? sweep_key(s, key, &v) : strcmp(table, "slurm") == 0 ? slurm_key(s, key, &v)
										    : param_key(s, key, &v, err);
	if (rc == -2)
		gl_errf(err, GL_EUSAGE, "unknown key '%s'%s%s%s", key, table[0] ? " in [" : "", table, table[0] ? "]" : "");
	return rc;
}

int gl_sweep_spec_read(const char *path, struct gl_sweep_spec *s, struct gl_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return gl_errf(err, GL_EUSAGE, "cannot read the sweep spec %s: %m", path);
	char line[2048], table[16] = "";
	int no = 0, rc = 0;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		no++;
		struct gl_err e = {0};
		rc = spec_line(s, line, table, sizeof table, &e);
		if (rc)
			gl_errf(err, GL_EUSAGE, "%s:%d: %s (the TOML subset of docs/sweeps.md: key = \"string\" | "
				"integer | [one-line array]; tables [params] and [slurm])",
				path, no, e.status ? e.msg : "cannot read this line");
	}
	fclose(f);
	return rc ? GL_EUSAGE : GL_OK;
}
