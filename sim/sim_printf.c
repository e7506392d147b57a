/* sim_printf.c — device printf.  gpulab parses the kernel's format string itself and formats each
 * argument with its own conversion, reading it from the argument buffer's bytes (each argument aligned
 * to its size, as nvcc packs them); the host's printf only ever sees a format gpulab built from checked
 * parts (for the floating-point digits).  The supported fields are CUDA's: flags `-+ #0`, width (digits
 * or `*`), precision (`.` digits or `.*`), sizes `hh h l ll`, conversions `cdiouxXpeEfgGaAs`; anything
 * else is printed as written and counted in a note.  Widths and precisions are clamped to the room left,
 * so no call produces more than the buffer holds, however large the numbers in the format. */
#include "sim_printf.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct spec {
	bool minus, plus, space, hash, zero;
	bool width_star, prec_star;
	size_t width;
	long prec;  /* -1: none */
	char len;   /* 0, 'H' (hh), 'h', 'l', 'L' (ll) */
	char conv;
};

struct fmt {
	const struct sim_printf_reader *rd;
	uint64_t cursor;      /* next argument */
	int nargs;            /* arguments consumed */
	struct gl_str *out;
	size_t start, limit;  /* out->len when formatting began; most bytes it may add */
	bool full;            /* the text went past `limit` */
};

static size_t room(const struct fmt *f)
{
	return f->limit - (f->out->len - f->start);
}

/* Text that does not fit marks the record full at once: it will be dropped, so nothing more is written. */
static void put(struct fmt *f, const char *s, size_t n)
{
	if (f->full || !n)
		return;
	if (n > room(f)) {
		f->full = true;
		return;
	}
	struct gl_str *o = f->out;
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 256;
		while (cap < o->len + n + 1)
			cap *= 2;
		o->buf = gl_xrealloc(o->buf, cap);
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void pad(struct fmt *f, char c, size_t n)
{
	char chunk[64];
	memset(chunk, c, sizeof chunk);
	if (n > room(f))
		f->full = true;
	while (n && !f->full) {
		size_t k = n < sizeof chunk ? n : sizeof chunk;
		put(f, chunk, k);
		n -= k;
	}
}

/* The next argument of `size` bytes, aligned to its size. */
static int next_arg(struct fmt *f, unsigned size, uint64_t *v)
{
	f->cursor = (f->cursor + size - 1) / size * size;
	*v = 0;
	if (f->rd->read(f->rd->ctx, f->cursor, size, v))
		return -1;
	f->cursor += size;
	f->nargs++;
	return 0;
}

/* Digits of a width or precision, saturating at `cap` (nothing longer can fit anyway). */
static size_t parse_count(const char **p, size_t cap)
{
	size_t v = 0;
	while (**p >= '0' && **p <= '9') {
		v = v * 10 + (size_t)(**p - '0');
		if (v > cap)
			v = cap;
		(*p)++;
	}
	return v;
}

/* Parse the conversion after '%'.  Returns the end of the spec; `ok` says whether gpulab supports it. */
static const char *parse_spec(const char *p, size_t cap, struct spec *s, bool *ok)
{
	memset(s, 0, sizeof *s);
	s->prec = -1;
	for (;; p++) {
		if (*p == '-') s->minus = true;
		else if (*p == '+') s->plus = true;
		else if (*p == ' ') s->space = true;
		else if (*p == '#') s->hash = true;
		else if (*p == '0') s->zero = true;
		else break;
	}
	if (*p == '*') {
		s->width_star = true;
		p++;
	} else {
		s->width = parse_count(&p, cap);
	}
	if (*p == '.') {
		p++;
		if (*p == '*') {
			s->prec_star = true;
			p++;
		} else {
			s->prec = (long)parse_count(&p, cap);
		}
	}
	const char *len = p;
	p += strspn(p, "hlLqjzt");
	size_t nlen = (size_t)(p - len);
	bool len_ok = nlen == 0 || (nlen == 1 && (*len == 'h' || *len == 'l')) ||
		      (nlen == 2 && len[0] == len[1] && (*len == 'h' || *len == 'l'));
	if (nlen)
		s->len = nlen == 1 ? *len : (*len == 'h' ? 'H' : 'L');
	s->conv = *p;
	*ok = len_ok && *p && strchr("cdiouxXpeEfgGaAs", *p);
	return *p ? p + 1 : p;
}

static void emit_padded(struct fmt *f, const struct spec *s, const char *text, size_t n)
{
	if (s->width > room(f))
		f->full = true;
	size_t padn = s->width > n ? s->width - n : 0;
	if (!s->minus)
		pad(f, ' ', padn);
	put(f, text, n);
	if (s->minus)
		pad(f, ' ', padn);
}

static void emit_int(struct fmt *f, const struct spec *s, uint64_t mag, bool neg)
{
	unsigned base = s->conv == 'o' ? 8 : strchr("xXp", s->conv) ? 16 : 10;
	const char *dig = s->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	char rev[24], digits[24];
	size_t nd = 0;
	for (uint64_t v = mag; v || nd == 0; v /= base)
		rev[nd++] = dig[v % base];
	if (s->prec == 0 && mag == 0)
		nd = 0;
	for (size_t i = 0; i < nd; i++)
		digits[i] = rev[nd - 1 - i];
	char prefix[3];
	size_t np = 0;
	bool is_signed = s->conv == 'd' || s->conv == 'i';
	if (is_signed && neg)
		prefix[np++] = '-';
	else if (is_signed && s->plus)
		prefix[np++] = '+';
	else if (is_signed && s->space)
		prefix[np++] = ' ';
	if ((s->hash && mag && (s->conv == 'x' || s->conv == 'X')) || s->conv == 'p') {
		prefix[np++] = '0';
		prefix[np++] = s->conv == 'X' ? 'X' : 'x';
	}
	size_t zeros = s->prec > 0 && (size_t)s->prec > nd ? (size_t)s->prec - nd : 0;
	if (s->conv == 'o' && s->hash && !zeros && (nd == 0 || digits[0] != '0'))
		zeros = 1;
	size_t body = np + zeros + nd;
	if (s->width > room(f) || body > room(f))
		f->full = true;
	size_t padn = s->width > body ? s->width - body : 0;
	if (!s->minus && s->zero && s->prec < 0) {
		zeros += padn;
		padn = 0;
	}
	if (!s->minus)
		pad(f, ' ', padn);
	put(f, prefix, np);
	pad(f, '0', zeros);
	put(f, digits, nd);
	if (s->minus)
		pad(f, ' ', padn);
}

static int conv_int(struct fmt *f, const struct spec *s)
{
	unsigned size = s->len == 'l' || s->len == 'L' || s->conv == 'p' ? 8 : 4; /* smaller ones are promoted */
	uint64_t v;
	if (next_arg(f, size, &v))
		return -1;
	if (s->conv == 'p' && v == 0) {
		emit_padded(f, s, "(nil)", 5);
		return 0;
	}
	if (s->conv == 'd' || s->conv == 'i') {
		int64_t x = size == 8 ? (int64_t)v : (int32_t)(uint32_t)v;
		if (s->len == 'H')
			x = (int8_t)x;
		else if (s->len == 'h')
			x = (int16_t)x;
		emit_int(f, s, x < 0 ? 0 - (uint64_t)x : (uint64_t)x, x < 0);
		return 0;
	}
	if (size == 4)
		v = (uint32_t)v;
	if (s->len == 'H')
		v = (uint8_t)v;
	else if (s->len == 'h')
		v = (uint16_t)v;
	emit_int(f, s, v, false);
	return 0;
}

/* The digits of a double come from the C library, with a format gpulab builds from checked parts. */
static int conv_float(struct fmt *f, const struct spec *s)
{
	uint64_t bits;
	if (next_arg(f, 8, &bits))
		return -1;
	double d;
	memcpy(&d, &bits, sizeof d);
	char spec[16];
	size_t k = 0;
	spec[k++] = '%';
	if (s->minus) spec[k++] = '-';
	if (s->plus) spec[k++] = '+';
	if (s->space) spec[k++] = ' ';
	if (s->hash) spec[k++] = '#';
	if (s->zero) spec[k++] = '0';
	spec[k++] = '*';
	if (s->prec >= 0) {
		spec[k++] = '.';
		spec[k++] = '*';
	}
	spec[k++] = s->conv;
	spec[k] = '\0';
	if (s->width > room(f) || (s->prec > 0 && (size_t)s->prec > room(f) && (s->conv == 'f' || s->conv == 'e' ||
									   s->conv == 'E'))) {
		f->full = true; /* at least that many characters: the record cannot fit */
		return 0;
	}
	size_t cap = s->width + (s->prec > 0 ? (size_t)s->prec : 0) + 400; /* 309 integer digits of DBL_MAX */
	char small[512], *buf = cap <= sizeof small ? small : gl_xmalloc(cap);
	int n = s->prec >= 0 ? snprintf(buf, cap, spec, (int)s->width, (int)s->prec, d)
			     : snprintf(buf, cap, spec, (int)s->width, d);
	if (n > 0)
		put(f, buf, (size_t)n < cap ? (size_t)n : cap - 1);
	if (buf != small)
		free(buf);
	return 0;
}

/* %c: an int, printed as one byte (a NUL byte is left out: the output is text). */
static int conv_char(struct fmt *f, const struct spec *s)
{
	uint64_t v;
	if (next_arg(f, 4, &v))
		return -1;
	char c = (char)(uint8_t)v;
	emit_padded(f, s, &c, c ? 1 : 0);
	return 0;
}

/* %s: a pointer into simulated memory, read at the call (as the device copies it into its buffer); a
 * null pointer prints "(null)"; the precision bounds how many bytes are read. */
static int conv_string(struct fmt *f, const struct spec *s)
{
	uint64_t addr;
	if (next_arg(f, 8, &addr))
		return -1;
	if (!addr) {
		size_t n = s->prec >= 0 && (size_t)s->prec < 6 ? (size_t)s->prec : 6;
		emit_padded(f, s, "(null)", n);
		return 0;
	}
	size_t max = room(f) + 1;
	if (s->prec >= 0 && (size_t)s->prec < max)
		max = (size_t)s->prec;
	struct gl_str text = {0};
	size_t n = 0;
	char chunk[256];
	for (;;) {
		size_t k = 0;
		for (; k < sizeof chunk && n + k < max; k++) {
			if (f->rd->read(f->rd->ctx, addr + n + k, 1, &chunk[k])) {
				gl_str_free(&text);
				return -1;
			}
			if (!chunk[k])
				break;
		}
		gl_str_addf(&text, "%.*s", (int)k, chunk);
		n += k;
		if (k < sizeof chunk)
			break;
	}
	emit_padded(f, s, text.buf ? text.buf : "", n);
	gl_str_free(&text);
	return 0;
}

static int star(struct fmt *f, long *out)
{
	uint64_t v;
	if (next_arg(f, 4, &v))
		return -1;
	*out = (int32_t)(uint32_t)v;
	return 0;
}

static void literal(struct fmt *f, const char *from, const char *to, struct sim_printf_note *note)
{
	put(f, from, (size_t)(to - from));
	if (note) {
		if (!note->unsupported++)
			snprintf(note->first, sizeof note->first, "%.*s", (int)(to - from), from);
	}
}

static int convert(struct fmt *f, struct spec *s)
{
	size_t cap = room(f) + 1;
	long v;
	if (s->width_star) {
		if (star(f, &v))
			return -1;
		if (v < 0) {
			s->minus = true;
			v = -v;
		}
		s->width = (size_t)v < cap ? (size_t)v : cap;
	}
	if (s->prec_star) {
		if (star(f, &v))
			return -1;
		s->prec = v < 0 ? -1 : (size_t)v < cap ? v : (long)cap;
	}
	switch (s->conv) {
	case 'c': return conv_char(f, s);
	case 's': return conv_string(f, s);
	case 'e': case 'E': case 'f': case 'g': case 'G': case 'a': case 'A': return conv_float(f, s);
	default: return conv_int(f, s);
	}
}

int sim_printf_format(const char *fmt, uint64_t args, const struct sim_printf_reader *rd, size_t limit,
		      struct gl_str *out, struct sim_printf_note *note)
{
	struct fmt f = {.rd = rd, .cursor = args, .out = out, .start = out->len, .limit = limit};
	for (const char *p = fmt; *p && !f.full;) {
		if (*p != '%') {
			size_t n = strcspn(p, "%");
			put(&f, p, n);
			p += n;
			continue;
		}
		if (p[1] == '%') {
			put(&f, "%", 1);
			p += 2;
			continue;
		}
		struct spec s;
		bool ok;
		const char *end = parse_spec(p + 1, limit + 1, &s, &ok);
		if (!ok) {
			literal(&f, p, end, note);
		} else if (f.nargs >= SIM_PRINTF_MAX_ARGS) {
			literal(&f, p, end, NULL); /* CUDA prints specifiers past its 32 arguments as written */
		} else if (convert(&f, &s)) {
			return -1;
		}
		p = end;
	}
	return f.full ? 1 : 0;
}

size_t sim_printf_room(const struct sim_printf_fifo *f)
{
	return f->size - f->used;
}

void sim_printf_drop(struct sim_printf_fifo *f)
{
	f->dropped++;
}

void sim_printf_record(struct sim_printf_fifo *f, const char *text, size_t n)
{
	if (!n)
		return;
	if (n > sim_printf_room(f)) {
		f->dropped++;
		return;
	}
	if (f->len + n + 1 > f->cap) {
		size_t cap = f->cap ? f->cap : 256;
		while (cap < f->len + n + 1)
			cap *= 2;
		f->buf = gl_xrealloc(f->buf, cap);
		f->cap = cap;
	}
	memcpy(f->buf + f->len, text, n);
	f->buf[f->len + n] = '\0';
	f->len += n + 1;
	f->used += n;
}

void sim_printf_merge(struct sim_printf_fifo *into, const struct sim_printf_fifo *from)
{
	for (size_t at = 0; at < from->len;) {
		size_t n = strlen(from->buf + at);
		sim_printf_record(into, from->buf + at, n);
		at += n + 1;
	}
	into->dropped += from->dropped;
	if (from->note.unsupported && !into->note.unsupported)
		memcpy(into->note.first, from->note.first, sizeof into->note.first);
	into->note.unsupported += from->note.unsupported;
}

char *sim_printf_text(struct sim_printf_fifo *f)
{
	char *text = f->buf ? f->buf : gl_xstrdup("");
	size_t w = 0;
	for (size_t r = 0; r < f->len; r++)
		if (f->buf[r])
			text[w++] = f->buf[r];
	text[w] = '\0';
	f->buf = NULL;
	f->len = f->cap = f->used = 0;
	return text;
}

void sim_printf_free(struct sim_printf_fifo *f)
{
	free(f->buf);
	f->buf = NULL;
	f->len = f->cap = f->used = 0;
}
