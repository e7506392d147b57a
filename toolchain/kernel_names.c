/* kernel_names.c — the kernel `gpulab sim --kernel NAME` means: an exact .entry name (extern "C" or
 * mangled), or any C++ spelling of a mangled one as c++filt writes it — the signature
 * "lab::reduce<float, 256>(float const*, float*, int)", the qualified name with or without template
 * arguments, or the last component with or without them ("reduce<float, 256>", "reduce").  Spaces do
 * not matter.  A name that fits several kernels is refused with the list of what it matches. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "toolchain/toolchain.h"

/* The C++ spellings of one function name; for names outside the demangler's subset, the source names
 * of the mangling's leading N...E nesting (the previous, template-blind reading). */
struct spellings {
	struct gl_demangled d;
	bool ok;
};

static bool source_name(const char **p, const char **name, size_t *len)
{
	char *end;
	if (**p < '1' || **p > '9')
		return false;
	unsigned long n = strtoul(*p, &end, 10);
	if (n == 0 || strlen(end) < n)
		return false;
	*name = end;
	*len = n;
	*p = end + n;
	return true;
}

static void fallback(const char *mangled, struct gl_demangled *d)
{
	const char *p = mangled + 2;
	if (*p == 'L')
		p++;
	bool nested = *p == 'N';
	if (nested)
		for (p++; *p == 'r' || *p == 'V' || *p == 'K'; p++)
			;
	const char *name;
	size_t len;
	while (source_name(&p, &name, &len)) {
		size_t q = strlen(d->plain);
		snprintf(d->plain + q, sizeof d->plain - q, "%s%.*s", q ? "::" : "", (int)len, name);
		snprintf(d->base, sizeof d->base, "%.*s", (int)len, name);
		if (!nested)
			break;
	}
}

static void spell(const char *fname, struct spellings *s)
{
	s->ok = gl_demangle(fname, &s->d) == 0;
	if (!s->ok) {
		memset(&s->d, 0, sizeof s->d);
		if (strncmp(fname, "_Z", 2) == 0)
			fallback(fname, &s->d);
	}
}

void gl_simsrc_base_name(const char *mangled, char *out, size_t n)
{
	struct spellings s;
	spell(mangled, &s);
	snprintf(out, n, "%s", s.d.base[0] ? s.d.base : mangled);
}

/* `s` without white space, and without a leading "void " (c++filt prints a template's return type). */
static void squeeze(const char *s, char *out, size_t n)
{
	while (isspace((unsigned char)*s))
		s++;
	if (strncmp(s, "void", 4) == 0 && isspace((unsigned char)s[4]))
		s += 5;
	size_t k = 0;
	for (; *s && k + 1 < n; s++)
		if (!isspace((unsigned char)*s))
			out[k++] = *s;
	out[k] = '\0';
}

/* `s` with every integer literal written one way: its value in decimal, without a suffix, so that the
 * spellings C++ source allows for one template argument (1U, 1u, 1, 0x1, 1UL) compare equal; true and
 * false as 1 and 0.  A literal starts where no identifier character precedes it (float4 stays float4). */
static void literals(const char *s, char *out, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; s[i] && k + 1 < n;) {
		bool start = i == 0 || !(isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_');
		char *end;
		if (start && isdigit((unsigned char)s[i])) {
			unsigned long long v = strtoull(s + i, &end, 0);
			while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
				end++;
			if (!(isalnum((unsigned char)*end) || *end == '_' || *end == '.')) {
				k += (size_t)snprintf(out + k, n - k, "%llu", v);
				i = (size_t)(end - s);
				continue;
			}
		}
		size_t wlen = !start ? 0 : strncmp(s + i, "true", 4) == 0 ? 4 : strncmp(s + i, "false", 5) == 0 ? 5 : 0;
		if (wlen && !(isalnum((unsigned char)s[i + wlen]) || s[i + wlen] == '_')) {
			out[k++] = wlen == 4 ? '1' : '0';
			i += wlen;
			continue;
		}
		out[k++] = s[i++];
	}
	out[k < n ? k : n - 1] = '\0';
}

static bool same(const char *form, const char *want)
{
	char f[600], a[600], b[600];
	if (!form[0])
		return false;
	squeeze(form, f, sizeof f);
	literals(f, a, sizeof a);
	literals(want, b, sizeof b);
	return strcmp(a, b) == 0;
}

static bool matches(const struct spellings *s, const char *want)
{
	const struct gl_demangled *d = &s->d;
	return same(d->signature, want) || same(d->name, want) || same(d->plain, want) || same(d->base_args, want) ||
	       same(d->base, want);
}

static bool defined(const struct ptx_function *f)
{
	return f->code || f->error; /* a body, or one that failed to decode (ptx_parse_lazy) */
}

/* "mangled (C++ signature)" for messages. */
static void describe(const struct ptx_function *f, struct gl_str *s)
{
	struct spellings sp;
	spell(f->name, &sp);
	const char *pretty = sp.ok ? sp.d.signature : sp.d.plain;
	if (pretty[0] && strcmp(pretty, f->name) != 0)
		gl_str_addf(s, "%s (%s)", f->name, pretty);
	else
		gl_str_add(s, f->name);
}

static void list_entries(const struct ptx_module *m, struct gl_str *s)
{
	int k = 0;
	for (int i = 0; i < m->nfuncs; i++) {
		const struct ptx_function *f = &m->funcs[i];
		if (!f->is_entry || !defined(f))
			continue;
		gl_str_add(s, k++ ? ", " : "");
		describe(f, s);
	}
	if (!k)
		gl_str_add(s, "none");
}

static int unknown_kernel(const struct ptx_module *m, const char *name, struct gl_err *err)
{
	enum { MAXC = 128 };
	const char *cands[3 * MAXC];
	char bases[MAXC][256], args[MAXC][512];
	size_t n = 0, nb = 0;
	for (int i = 0; i < m->nfuncs && nb < MAXC; i++) {
		const struct ptx_function *f = &m->funcs[i];
		if (!f->is_entry || !defined(f))
			continue;
		struct spellings s;
		spell(f->name, &s);
		snprintf(bases[nb], sizeof bases[nb], "%s", s.d.base[0] ? s.d.base : f->name);
		snprintf(args[nb], sizeof args[nb], "%s", s.d.base_args[0] ? s.d.base_args : f->name);
		cands[n++] = f->name;
		cands[n++] = bases[nb];
		cands[n++] = args[nb++];
	}
	const char *near = gl_suggest(name, cands, n);
	struct gl_str list = {0};
	list_entries(m, &list);
	int rc;
	if (near)
		rc = gl_errf(err, GL_EUSAGE, "no kernel named '%s' in %s (did you mean '%s'?); kernels: %s", name, m->name,
			     near, list.buf);
	else
		rc = gl_errf(err, GL_EUSAGE, "no kernel named '%s' in %s; kernels: %s", name, m->name, list.buf);
	gl_str_free(&list);
	return rc;
}

/* A device function of that name: say so rather than "no kernel". */
static int device_function(const struct ptx_module *m, const char *name, const char *want, struct gl_err *err)
{
	for (int i = 0; i < m->nfuncs; i++) {
		const struct ptx_function *f = &m->funcs[i];
		if (f->is_entry)
			continue;
		struct spellings s;
		spell(f->name, &s);
		if (strcmp(f->name, name) == 0)
			return gl_errf(err, GL_EUSAGE, "'%s' is a device function (.func), not a kernel (.entry)", name);
		if (matches(&s, want))
			return gl_errf(err, GL_EUSAGE, "'%s' (%s) is a device function (.func), not a kernel (.entry)", name,
				       f->name);
	}
	return GL_OK;
}

int gl_simsrc_kernel(const struct ptx_module *m, const char *name, const struct ptx_function **fn,
		     struct gl_err *err)
{
	*fn = NULL;
	for (int i = 0; i < m->nfuncs; i++)
		if (defined(&m->funcs[i]) && strcmp(m->funcs[i].name, name) == 0) {
			if (!m->funcs[i].is_entry)
				return gl_errf(err, GL_EUSAGE, "'%s' is a device function (.func), not a kernel (.entry)",
					       name);
			*fn = &m->funcs[i];
			return GL_OK;
		}
	char want[600];
	squeeze(name, want, sizeof want);
	int hits = 0;
	struct gl_str list = {0};
	for (int i = 0; i < m->nfuncs; i++) {
		const struct ptx_function *f = &m->funcs[i];
		if (!f->is_entry || !defined(f) || strncmp(f->name, "_Z", 2) != 0)
			continue;
		struct spellings s;
		spell(f->name, &s);
		if (!matches(&s, want))
			continue;
		gl_str_add(&list, hits++ ? ", " : "");
		describe(f, &list);
		*fn = f;
	}
	if (hits > 1) {
		*fn = NULL;
		int rc = gl_errf(err, GL_EUSAGE, "kernel name '%s' is ambiguous in %s: it matches %s; pass one of them "
			     "to --kernel (the mangled name, or the C++ name with its template arguments or parameter "
			     "types)", name, m->name, list.buf);
		gl_str_free(&list);
		return rc;
	}
	gl_str_free(&list);
	if (hits)
		return GL_OK;
	int rc = device_function(m, name, want, err);
	return rc ? rc : unknown_kernel(m, name, err);
}
