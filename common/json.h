/* json.h — a minimal streaming JSON writer (objects, arrays, strings, numbers) with correct escaping
 * and comma handling, so every --json output of gpulab is valid JSON. */
#ifndef GL_JSON_H
#define GL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct gl_json {
	FILE *out;
	int depth;
	bool need_comma[64];
};

void gl_json_init(struct gl_json *j, FILE *out);
void gl_json_begin_object(struct gl_json *j, const char *key); /* key NULL inside arrays / at top */
void gl_json_end_object(struct gl_json *j);
void gl_json_begin_array(struct gl_json *j, const char *key);
void gl_json_end_array(struct gl_json *j);
void gl_json_string(struct gl_json *j, const char *key, const char *value); /* NULL value -> null */
void gl_json_number(struct gl_json *j, const char *key, double value);
void gl_json_int(struct gl_json *j, const char *key, long long value);
void gl_json_bool(struct gl_json *j, const char *key, bool value);
void gl_json_null(struct gl_json *j, const char *key);
void gl_json_raw(struct gl_json *j, const char *key, const char *raw_json);
void gl_json_write_escaped(FILE *out, const char *s);
/* What `write` writes through a JSON writer, as a string (the caller frees it; "{}" when no memory
 * stream can be opened). */
char *gl_json_to_string(void (*write)(struct gl_json *j, const void *arg), const void *arg);

/* Reading back the flat objects gpulab writes itself, such as a launch's parameters
 * ({"rows":1024,"layout":"nhwc"}, kernels' gl_problem_json): the value of `key` at the object's top level
 * as text, a string without its quotes (escapes kept as written), a number as written, into out (cut to
 * n - 1 bytes).  False when the key is absent, or its value is an object or an array. */
bool gl_json_flat_get(const char *json, const char *key, char *out, size_t n);

#endif
