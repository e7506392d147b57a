/* demangle.c — the part of the Itanium C++ ABI name mangling that kernel names use, so that
 * `--kernel 'MatrixMulCUDA<16>'` or `--kernel 'lab::reduce<float, 256>'` finds its .entry: nested and
 * anonymous namespaces, class and function templates with type and integer-literal arguments, the
 * builtin types, pointers, references, cv-qualifiers, template parameters and substitutions.  The text
 * is written as c++filt writes it ("float const*", "16u"), so a name copied from c++filt matches.
 * Anything outside this subset makes gl_demangle return -1 and callers fall back to the mangled name.
 * Reference: Itanium C++ ABI, section 5.1 "External Names" (itanium-cxx-abi.github.io/cxx-abi/abi.html). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolchain/toolchain.h"

#define MAX_SUBS 64
#define TEXT_MAX 512

struct dm {
	const char *p;
	char subs[MAX_SUBS][TEXT_MAX]; /* substitution candidates S_, S0_, S1_, ... in order */
	int nsubs;
	char targs[16][TEXT_MAX];      /* the function's template arguments, for T_, T0_, ... */
	int ntargs;
	int depth;                     /* recursion guard */
};

static int type(struct dm *d, char *out);

static void cat(char *out, const char *s)
{
	size_t n = strlen(out);
	snprintf(out + n, TEXT_MAX - n, "%s", s);
}

static void add_sub(struct dm *d, const char *s)
{
	if (d->nsubs < MAX_SUBS)
		snprintf(d->subs[d->nsubs++], TEXT_MAX, "%s", s);
}

/* <number> ::= [n] <decimal> */
static int number(struct dm *d, long long *v)
{
	int neg = *d->p == 'n';
	if (neg)
		d->p++;
	if (!isdigit((unsigned char)*d->p))
		return -1;
	char *end;
	*v = strtoll(d->p, &end, 10);
	d->p = end;
	if (neg)
		*v = -*v;
	return 0;
}

/* <source-name> ::= <length> <identifier> */
static int source_name(struct dm *d, char *out)
{
	long long n;
	if (!isdigit((unsigned char)*d->p) || number(d, &n) || n <= 0 || (long long)strlen(d->p) < n || n >= TEXT_MAX)
		return -1;
	if (n >= 11 && strncmp(d->p, "_GLOBAL__N", 10) == 0)
		snprintf(out, TEXT_MAX, "(anonymous namespace)");
	else
		snprintf(out, TEXT_MAX, "%.*s", (int)n, d->p);
	d->p += n;
	return 0;
}

/* <seq-id> _ : S_ is 0, S0_ is 1, S1_ is 2 ... (base 36, digits and upper-case letters) */
static int seq_index(struct dm *d, int *idx)
{
	if (*d->p == '_') {
		d->p++;
		*idx = 0;
		return 0;
	}
	long v = 0;
	while (isdigit((unsigned char)*d->p) || isupper((unsigned char)*d->p)) {
		v = v * 36 + (isdigit((unsigned char)*d->p) ? *d->p - '0' : *d->p - 'A' + 10);
		if (v > 1000)
			return -1;
		d->p++;
	}
	if (*d->p != '_')
		return -1;
	d->p++;
	*idx = (int)v + 1;
	return 0;
}

/* S <seq-id> _, or the std:: abbreviations. */
static int substitution(struct dm *d, char *out)
{
	static const struct {
		char c;
		const char *text;
	} abbrev[] = {{'t', "std"}, {'a', "std::allocator"}, {'b', "std::basic_string"}, {'s', "std::string"},
		      {'i', "std::istream"}, {'o', "std::ostream"}, {'d', "std::iostream"}};
	d->p++; /* S */
	for (size_t i = 0; i < sizeof abbrev / sizeof abbrev[0]; i++)
		if (*d->p == abbrev[i].c) {
			d->p++;
			snprintf(out, TEXT_MAX, "%s", abbrev[i].text);
			return 0;
		}
	int idx;
	if (seq_index(d, &idx) || idx >= d->nsubs)
		return -1;
	snprintf(out, TEXT_MAX, "%s", d->subs[idx]);
	return 0;
}

/* T_ is the first template argument, T0_ the second ... */
static int template_param(struct dm *d, char *out)
{
	d->p++; /* T */
	int idx;
	if (seq_index(d, &idx) || idx >= d->ntargs)
		return -1;
	snprintf(out, TEXT_MAX, "%s", d->targs[idx]);
	return 0;
}

/* L <type> <value> E, written as c++filt writes integer literals. */
static int literal(struct dm *d, char *out)
{
	static const struct {
		char c;
		const char *suffix;
	} ints[] = {{'i', ""}, {'j', "u"}, {'l', "l"}, {'m', "ul"}, {'x', "ll"}, {'y', "ull"}};
	d->p++; /* L */
	char t = *d->p++;
	long long v;
	if (number(d, &v) || *d->p != 'E')
		return -1;
	d->p++;
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		if (t == ints[i].c) {
			snprintf(out, TEXT_MAX, "%lld%s", v, ints[i].suffix);
			return 0;
		}
	if (t == 'b' && (v == 0 || v == 1)) {
		snprintf(out, TEXT_MAX, "%s", v ? "true" : "false");
		return 0;
	}
	static const struct {
		char c;
		const char *name;
	} casts[] = {{'c', "char"}, {'a', "signed char"}, {'h', "unsigned char"}, {'s', "short"}, {'t', "unsigned short"}};
	for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++)
		if (t == casts[i].c) {
			snprintf(out, TEXT_MAX, "(%s)%lld", casts[i].name, v);
			return 0;
		}
	return -1;
}

/* I <template-arg>+ E, as "<a, b>"; `keep` records them as the function's arguments for T_. */
static int template_args(struct dm *d, char *out, int keep)
{
	d->p++; /* I */
	char args[16][TEXT_MAX];
	int n = 0;
	snprintf(out, TEXT_MAX, "<");
	while (*d->p != 'E') {
		if (n == 16)
			return -1;
		char *a = args[n];
		a[0] = '\0';
		if (*d->p == 'L' ? literal(d, a) : type(d, a))
			return -1;
		cat(out, n ? ", " : "");
		cat(out, a);
		n++;
	}
	d->p++;
	cat(out, ">");
	if (keep) {
		memcpy(d->targs, args, sizeof args[0] * (size_t)n);
		d->ntargs = n;
	}
	return 0;
}

/* N [<CV-qualifiers>] <prefix> <unqualified-name> E: each prefix but the whole name is a candidate. */
static int nested_name(struct dm *d, char *out, int keep_args, int *templated)
{
	d->p++; /* N */
	while (*d->p == 'r' || *d->p == 'V' || *d->p == 'K')
		d->p++; /* a member function's own qualifiers: kernels have none worth printing */
	out[0] = '\0';
	*templated = 0;
	while (*d->p != 'E') {
		char part[TEXT_MAX];
		int is_sub = 0;
		*templated = 0;
		if (*d->p == 'S') {
			if (substitution(d, part))
				return -1;
			snprintf(out, TEXT_MAX, "%s", part);
			is_sub = 1;
		} else if (*d->p == 'I') {
			if (!out[0] || template_args(d, part, keep_args))
				return -1;
			cat(out, part);
			*templated = 1;
		} else if (*d->p == 'T') {
			if (template_param(d, part))
				return -1;
			snprintf(out, TEXT_MAX, "%s", part);
		} else {
			if (*d->p == 'L')
				d->p++; /* internal linkage */
			if (source_name(d, part))
				return -1;
			if (out[0])
				cat(out, "::");
			cat(out, part);
		}
		if (!*d->p)
			return -1;
		if (!is_sub && *d->p != 'E')
			add_sub(d, out);
	}
	d->p++;
	return 0;
}

/* <name> at the top of an encoding, or a class name inside a type.  *templated: it ends in template
 * arguments (then a function's first type is its return type). */
static int name(struct dm *d, char *out, int keep_args, int *templated)
{
	*templated = 0;
	if (*d->p == 'N')
		return nested_name(d, out, keep_args, templated);
	if (*d->p == 'S' && d->p[1] != 't') {
		if (substitution(d, out))
			return -1;
	} else {
		int std = *d->p == 'S';
		if (std)
			d->p += 2; /* St */
		if (*d->p == 'L')
			d->p++;
		char part[TEXT_MAX];
		if (source_name(d, part))
			return -1;
		snprintf(out, TEXT_MAX, "%s", std ? "std::" : "");
		cat(out, part);
		if (*d->p == 'I')
			add_sub(d, out); /* an unscoped template name */
	}
	if (*d->p == 'I') {
		char args[TEXT_MAX];
		if (template_args(d, args, keep_args))
			return -1;
		cat(out, args);
		*templated = 1;
	}
	return 0;
}

static const char *builtin(char c)
{
	switch (c) {
	case 'v': return "void";
	case 'w': return "wchar_t";
	case 'b': return "bool";
	case 'c': return "char";
	case 'a': return "signed char";
	case 'h': return "unsigned char";
	case 's': return "short";
	case 't': return "unsigned short";
	case 'i': return "int";
	case 'j': return "unsigned int";
	case 'l': return "long";
	case 'm': return "unsigned long";
	case 'x': return "long long";
	case 'y': return "unsigned long long";
	case 'n': return "__int128";
	case 'o': return "unsigned __int128";
	case 'f': return "float";
	case 'd': return "double";
	case 'e': return "long double";
	case 'g': return "__float128";
	case 'z': return "...";
	default: return NULL;
	}
}

static int type_inner(struct dm *d, char *out)
{
	const char *b = builtin(*d->p);
	if (b) {
		d->p++;
		snprintf(out, TEXT_MAX, "%s", b);
		return 0;
	}
	char inner[TEXT_MAX];
	switch (*d->p) {
	case 'D': {
		static const struct {
			const char *code, *text;
		} dt[] = {{"Dh", "half"}, {"DF16_", "_Float16"}, {"Dn", "decltype(nullptr)"}, {"Du", "char8_t"},
			  {"Ds", "char16_t"}, {"Di", "char32_t"}, {"DF16b", "std::bfloat16_t"}};
		for (size_t i = 0; i < sizeof dt / sizeof dt[0]; i++)
			if (strncmp(d->p, dt[i].code, strlen(dt[i].code)) == 0) {
				d->p += strlen(dt[i].code);
				snprintf(out, TEXT_MAX, "%s", dt[i].text);
				return 0; /* builtin: not a substitution candidate */
			}
		return -1;
	}
	case 'P': case 'R': case 'O': case 'K': case 'V': case 'r': {
		char c = *d->p++;
		if (type(d, inner))
			return -1;
		const char *suffix = c == 'P' ? "*" : c == 'R' ? "&" : c == 'O' ? "&&" : c == 'K' ? " const"
								   : c == 'V' ? " volatile" : " restrict";
		snprintf(out, TEXT_MAX, "%s", inner);
		cat(out, suffix);
		break;
	}
	case 'T':
		if (template_param(d, out))
			return -1;
		if (*d->p == 'I') { /* a template template parameter with arguments */
			add_sub(d, out);
			if (template_args(d, inner, 0))
				return -1;
			cat(out, inner);
		}
		break;
	case 'S':
		if (d->p[1] != 't') {
			if (substitution(d, out))
				return -1;
			if (*d->p != 'I')
				return 0; /* a substitution is not added again */
			if (template_args(d, inner, 0))
				return -1;
			cat(out, inner);
			break;
		}
		__attribute__((fallthrough)); /* St <name> */
	default: {
		int templated;
		if (!(*d->p == 'N' || *d->p == 'S' || isdigit((unsigned char)*d->p) || *d->p == 'L'))
			return -1;
		if (name(d, out, 0, &templated))
			return -1;
		break;
	}
	}
	add_sub(d, out);
	return 0;
}

static int type(struct dm *d, char *out)
{
	if (++d->depth > 64)
		return -1;
	int rc = type_inner(d, out);
	d->depth--;
	return rc;
}

int gl_demangle(const char *mangled, struct gl_demangled *out)
{
	memset(out, 0, sizeof *out);
	if (strncmp(mangled, "_Z", 2) != 0)
		return -1;
	struct dm *d = calloc(1, sizeof *d);
	if (!d)
		return -1;
	d->p = mangled + 2;
	int templated, rc = -1;
	char nm[TEXT_MAX], params[TEXT_MAX] = "", t[TEXT_MAX];
	if (name(d, nm, 1, &templated))
		goto done;
	if (templated && (type(d, t) || !*d->p)) /* the return type of a function template, then parameters */
		goto done;
	bool data = !*d->p && !templated; /* a variable's name has no parameter list */
	if (strcmp(d->p, "v") == 0) {
		d->p++;
	} else {
		for (int n = 0; *d->p; n++) {
			if (type(d, t))
				goto done;
			cat(params, n ? ", " : "");
			cat(params, t);
		}
	}
	if (*d->p || !*nm)
		goto done;
	snprintf(out->name, sizeof out->name, "%s", nm);
	snprintf(out->signature, sizeof out->signature, "%s", nm);
	if (!data) {
		cat(out->signature, "(");
		cat(out->signature, params);
		cat(out->signature, ")");
	}
	/* the qualified name without its final template arguments, and its last component with and
	 * without them ("ns::Outer<int>::kern<4>": "ns::Outer<int>::kern", "kern<4>", "kern") */
	size_t len = strlen(nm), cut = len, last = 0;
	if (len && nm[len - 1] == '>')
		for (int open = 0; cut-- > 0;) {
			open += nm[cut] == '>' ? 1 : nm[cut] == '<' ? -1 : 0;
			if (open == 0)
				break;
		}
	int depth = 0;
	for (size_t i = 0; i + 1 < cut; i++) {
		depth += nm[i] == '<' ? 1 : nm[i] == '>' ? -1 : 0;
		if (depth == 0 && nm[i] == ':' && nm[i + 1] == ':')
			last = i + 2;
	}
	snprintf(out->plain, sizeof out->plain, "%.*s", (int)cut, nm);
	snprintf(out->base, sizeof out->base, "%.*s", (int)(cut - last), nm + last);
	snprintf(out->base_args, sizeof out->base_args, "%s", nm + last);
	rc = 0;
done:
	free(d);
	return rc;
}
