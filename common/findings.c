/* findings.c — the deduplicating set of sanitizer findings: (kind, PTX line) -> one entry with its
 * occurrence count and first coordinates; merging in a fixed order; errors before warnings. */
#include "findings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void gl_findings_init(struct gl_findings *s, int limit)
{
	memset(s, 0, sizeof *s);
	s->limit = limit > 0 ? limit : GL_FINDINGS_MAX;
}

void gl_findings_clear(struct gl_findings *s)
{
	if (s->index && s->n) /* only the slots in use: clearing is cheap when a CTA found nothing */
		memset(s->index, 0, s->index_size * sizeof *s->index);
	s->n = 0;
	s->occurrences = s->errors = s->dropped = 0;
}

void gl_findings_free(struct gl_findings *s)
{
	free(s->items);
	free(s->index);
	int limit = s->limit;
	memset(s, 0, sizeof *s);
	s->limit = limit;
}

static unsigned key_hash(const char *kind, int line)
{
	uint32_t h = 2166136261u; /* FNV-1a over the kind, then the line mixed in */
	for (const char *p = kind; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	return (unsigned)((h ^ (uint32_t)line * 2654435761u) * 2246822519u);
}

/* The slot of (kind, line): the one holding it, or the empty one where it would go. */
static int *slot_of(const struct gl_findings *s, const char *kind, int line)
{
	unsigned mask = s->index_size - 1;
	for (unsigned i = key_hash(kind, line) & mask;; i = (i + 1) & mask) {
		int *slot = &s->index[i];
		if (!*slot)
			return slot;
		const struct gl_finding *f = &s->items[*slot - 1];
		if (f->line == line && strcmp(f->kind, kind) == 0)
			return slot;
	}
}

/* Room for `limit` entries at a load of at most one half, so probing always ends at an empty slot. */
static void ensure_index(struct gl_findings *s)
{
	if (s->index)
		return;
	s->index_size = 16;
	while (s->index_size < 2u * (unsigned)s->limit)
		s->index_size *= 2;
	s->index = gl_xcalloc(s->index_size, sizeof *s->index);
	for (int i = 0; i < s->n; i++)
		*slot_of(s, s->items[i].kind, s->items[i].line) = i + 1;
}

static void add_sample(struct gl_finding *f, const struct gl_finding_site *site)
{
	for (int i = 0; i < f->nsamples; i++)
		if (memcmp(&f->samples[i], site, sizeof *site) == 0)
			return;
	if (f->nsamples < GL_FINDING_SAMPLES)
		f->samples[f->nsamples++] = *site;
}

/* A new entry for (kind, line) at `slot`, or NULL when the set is full. */
static struct gl_finding *add_entry(struct gl_findings *s, int *slot, const char *kind, int line, bool warning)
{
	if (s->n >= s->limit)
		return NULL;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		if (s->cap > s->limit)
			s->cap = s->limit;
		s->items = gl_xrealloc(s->items, (size_t)s->cap * sizeof *s->items);
	}
	struct gl_finding *f = &s->items[s->n++];
	memset(f, 0, sizeof *f);
	snprintf(f->kind, sizeof f->kind, "%s", kind);
	f->line = line;
	f->warning = warning;
	*slot = s->n;
	return f;
}

struct gl_finding *gl_findings_note(struct gl_findings *s, const char *kind, int line, bool warning,
                                    const unsigned block[3], const unsigned thread[3], bool *fresh)
{
	s->occurrences++;
	if (!warning)
		s->errors++;
	ensure_index(s);
	int *slot = slot_of(s, kind, line);
	struct gl_finding *f = *slot ? &s->items[*slot - 1] : add_entry(s, slot, kind, line, warning);
	*fresh = f && f->count == 0;
	if (!f) {
		s->dropped++;
		return NULL;
	}
	struct gl_finding_site site;
	memcpy(site.block, block, sizeof site.block);
	memcpy(site.thread, thread, sizeof site.thread);
	if (*fresh) {
		memcpy(f->block, block, sizeof f->block);
		memcpy(f->thread, thread, sizeof f->thread);
	}
	f->count++;
	add_sample(f, &site);
	return f;
}

void gl_findings_merge(struct gl_findings *into, const struct gl_findings *from)
{
	into->occurrences += from->occurrences;
	into->errors += from->errors;
	into->dropped += from->dropped;
	if (!from->n)
		return;
	ensure_index(into);
	for (int i = 0; i < from->n; i++) {
		const struct gl_finding *g = &from->items[i];
		int *slot = slot_of(into, g->kind, g->line);
		struct gl_finding *f =
		    *slot ? &into->items[*slot - 1] : add_entry(into, slot, g->kind, g->line, g->warning);
		if (!f) {
			into->dropped += g->count;
			continue;
		}
		if (f->count == 0) { /* new here: the first occurrence's details come along */
			*f = *g;
			f->count = 0;
			f->nsamples = 0;
		}
		f->count += g->count;
		for (int k = 0; k < g->nsamples; k++)
			add_sample(f, &g->samples[k]);
	}
}

void gl_findings_order(struct gl_findings *s)
{
	if (s->n < 2)
		return;
	struct gl_finding *sorted = gl_xmalloc((size_t)s->cap * sizeof *sorted);
	int k = 0;
	for (int pass = 0; pass < 2; pass++) /* errors, then warnings; each keeps its order */
		for (int i = 0; i < s->n; i++)
			if (s->items[i].warning == (pass == 1))
				sorted[k++] = s->items[i];
	free(s->items);
	s->items = sorted;
	if (s->index) { /* positions moved: rebuild the index */
		memset(s->index, 0, s->index_size * sizeof *s->index);
		for (int i = 0; i < s->n; i++)
			*slot_of(s, s->items[i].kind, s->items[i].line) = i + 1;
	}
}

static const struct {
	const char *kind;
	int tool;
} kind_tools[] = {
    {"out-of-bounds", GL_TOOL_MEMCHECK},  {"misaligned", GL_TOOL_MEMCHECK},          {"race", GL_TOOL_RACECHECK},
    {"uninitialized", GL_TOOL_INITCHECK}, {"barrier-divergence", GL_TOOL_SYNCCHECK}, {"deadlock", GL_TOOL_SYNCCHECK},
    {"invalid-texture", GL_TOOL_MEMCHECK},
};

static const char *const tool_names[] = {"memcheck", "racecheck", "initcheck", "synccheck"};

int gl_finding_tool(const char *kind)
{
	for (size_t i = 0; i < GL_ARRAY_LEN(kind_tools); i++)
		if (strcmp(kind_tools[i].kind, kind) == 0)
			return kind_tools[i].tool;
	return 0;
}

bool gl_finding_selected(const char *kind, int tools)
{
	int t = gl_finding_tool(kind);
	return !(t & (GL_TOOL_MEMCHECK | GL_TOOL_RACECHECK | GL_TOOL_INITCHECK)) || (t & tools);
}

const char *gl_tool_name(int tool)
{
	for (int i = 0; i < 4; i++)
		if (tool == 1 << i)
			return tool_names[i];
	return tool == GL_TOOL_ALL ? "all" : "";
}

int gl_tool_parse(const char *text)
{
	int mask = 0;
	const char *p = text;
	while (*p) {
		size_t n = strcspn(p, ",");
		int bit = 0;
		if (n == 3 && strncmp(p, "all", 3) == 0)
			bit = GL_TOOL_ALL;
		for (int i = 0; i < 4 && !bit; i++)
			if (strlen(tool_names[i]) == n && strncmp(p, tool_names[i], n) == 0)
				bit = 1 << i;
		if (!bit)
			return -1;
		mask |= bit;
		p += n;
		if (*p == ',' && *++p == '\0')
			return -1; /* a trailing comma */
	}
	return mask ? mask : -1;
}
