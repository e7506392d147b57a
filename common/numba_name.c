/* numba_name.c — Numba's mangled kernel names back to Python names. */
#include "common/numba_name.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read a <source-name>: decimal length, then that many characters.  NULL when malformed. */
static const char *source_name(const char *p, const char **text, size_t *len)
{
	if (!isdigit((unsigned char)*p))
		return NULL;
	char *end;
	unsigned long n = strtoul(p, &end, 10);
	if (n == 0 || strnlen(end, n) < n)
		return NULL;
	*text = end;
	*len = n;
	return end + n;
}

static int hex(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Append one component, undoing the _XX escapes of ASCII punctuation (Numba escapes only bytes outside
 * [A-Za-z0-9_]; "_ad" in "my_add" would be the byte 0xad, which is no ASCII and is left as written, so
 * a non-ASCII identifier keeps its escapes). */
static void append_unescaped(char *out, size_t n, size_t *k, const char *s, size_t len)
{
	for (size_t i = 0; i < len && *k + 1 < n; i++) {
		int hi = i + 2 < len && s[i] == '_' ? hex(s[i + 1]) : -1, lo = hi >= 0 ? hex(s[i + 2]) : -1;
		int byte = hi * 16 + lo;
		if (hi >= 0 && lo >= 0 && byte < 0x80 && isprint(byte) && !(isalnum(byte) || byte == '_')) {
			out[(*k)++] = (char)byte;
			i += 2;
		} else {
			out[(*k)++] = s[i];
		}
	}
	out[*k] = '\0';
}

/* Skip the ABI tags after a component ("B2v1B92cw51..."); *tagged: there was at least one. */
static const char *abi_tags(const char *p, bool *tagged)
{
	const char *text;
	size_t len;
	while (*p == 'B') {
		const char *next = source_name(p + 1, &text, &len);
		if (!next)
			return NULL;
		*tagged = true;
		p = next;
	}
	return p;
}

bool gl_numba_name(const char *mangled, char *out, size_t n)
{
	if (!mangled || strncmp(mangled, "_ZN", 3) != 0 || n == 0)
		return false;
	char name[512] = "";
	size_t k = 0;
	bool tagged = false;
	const char *p = mangled + 3;
	while (*p && *p != 'E') {
		const char *text;
		size_t len;
		p = source_name(p, &text, &len);
		if (!p || (tagged = false, p = abi_tags(p, &tagged)) == NULL)
			return false;
		if (k && k + 1 < sizeof name)
			name[k++] = '.';
		append_unescaped(name, sizeof name, &k, text, len);
	}
	if (*p != 'E' || !tagged) /* Numba tags the function's own component */
		return false;
	const char *shown = strncmp(name, "__main__.", 9) == 0 ? name + 9 : name;
	snprintf(out, n, "%s", shown);
	return true;
}
