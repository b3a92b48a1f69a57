/*
 * Job array index specs ("name[1-10:2,20]%5") and job ID strings
 * ("123[1-5,7]").  See array.h for the rules and the overlap decision.
 *
 * The ranges are kept as written (for printing) and expanded into a sorted
 * index array (for counting, iterating and membership); duplicates are
 * found after sorting, then traced back to the range that repeated them
 * so the error can name its column.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "job/array.h"
#include "job/depend.h"
#include "util/error.h"

typedef struct {
	guint start, end, step;
	gboolean has_end, has_step;
	gsize col;           /* 1-based column of start, for errors */
} Range;

struct _BsArraySpec {
	char *name;
	GArray *ranges;      /* Range */
	GArray *indices;     /* guint, ascending, unique */
	guint limit;
};

typedef struct {
	const char *text;
	const char *what;    /* "job array" or "job ID" */
	gsize pos;
	guint max_index;
	GError **error;
} Parser;

static gboolean fail(Parser *p, gsize col, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static gboolean
fail(Parser *p, gsize col, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(p->error, BS_ERROR, BS_ERROR_FAILED,
	    "bad %s \"%s\": %s at column %zu", p->what, p->text, msg, col);
	g_free(msg);
	return FALSE;
}

static gboolean
fail_here(Parser *p, const char *expected)
{
	char c = p->text[p->pos];

	if (c == '\0')
		return fail(p, p->pos + 1, "expected %s, not the end", expected);
	if (!g_ascii_isprint(c))
		return fail(p, p->pos + 1, "expected %s, not byte 0x%02x", expected,
		    (guchar)c);
	return fail(p, p->pos + 1, "expected %s, not '%c'", expected, c);
}

/* A whole number up to G_MAXUINT32 at the current position. */
static gboolean
parse_number(Parser *p, const char *what, guint *out)
{
	guint64 v = 0;
	gsize start = p->pos;

	if (!g_ascii_isdigit(p->text[p->pos]))
		return fail_here(p, what);
	for (; g_ascii_isdigit(p->text[p->pos]); p->pos++) {
		v = v * 10 + (guint64)(p->text[p->pos] - '0');
		if (v > G_MAXUINT32)
			return fail(p, start + 1, "number too large");
	}
	*out = (guint)v;
	return TRUE;
}

static gboolean
check_index(Parser *p, guint v, gsize col)
{
	if (v < 1)
		return fail(p, col, "index 0: indices start at 1");
	if (v > p->max_index)
		return fail(p, col, "index %u is above the maximum %u", v,
		    p->max_index);
	return TRUE;
}

/* start[-end[:step]] */
static gboolean
parse_range(Parser *p, Range *r)
{
	gsize col;

	memset(r, 0, sizeof(*r));
	r->col = p->pos + 1;
	if (!parse_number(p, "an index", &r->start) ||
	    !check_index(p, r->start, r->col))
		return FALSE;
	r->end = r->start;
	r->step = 1;
	if (p->text[p->pos] == '-') {
		p->pos++;
		col = p->pos + 1;
		if (!parse_number(p, "the end of the range", &r->end) ||
		    !check_index(p, r->end, col))
			return FALSE;
		if (r->end < r->start)
			return fail(p, col, "range end %u is below its start %u",
			    r->end, r->start);
		r->has_end = TRUE;
	}
	if (p->text[p->pos] == ':') {
		if (!r->has_end)
			return fail(p, p->pos + 1, "a step needs a range (start-end:step)");
		p->pos++;
		col = p->pos + 1;
		if (!parse_number(p, "a step", &r->step))
			return FALSE;
		if (r->step < 1)
			return fail(p, col, "the step must be at least 1");
		r->has_step = TRUE;
	}
	return TRUE;
}

static guint64
range_count(const Range *r)
{
	return (r->end - r->start) / r->step + 1;
}

static gboolean
range_has(const Range *r, guint v)
{
	return v >= r->start && v <= r->end && (v - r->start) % r->step == 0;
}

static int
cmp_uint(gconstpointer a, gconstpointer b)
{
	guint x = *(const guint *)a, y = *(const guint *)b;

	return (x > y) - (x < y);
}

/* The second range, in written order, that holds v (one range never
 * holds an index twice). */
static const Range *
second_holder(const GArray *ranges, guint v)
{
	gboolean seen = FALSE;

	for (guint i = 0; i < ranges->len; i++) {
		const Range *r = &g_array_index(ranges, Range, i);

		if (range_has(r, v) && seen)
			return r;
		seen = seen || range_has(r, v);
	}
	g_assert_not_reached();
}

/* Fills spec->indices from spec->ranges: sorted, duplicates merged or
 * refused. */
static gboolean
expand(Parser *p, BsArraySpec *spec, gboolean merge)
{
	guint64 total = 0;
	guint out = 0;

	for (guint i = 0; i < spec->ranges->len; i++)
		total += range_count(&g_array_index(spec->ranges, Range, i));
	if (total > BS_ARRAY_MAX_ELEMENTS)
		return fail(p, 1, "more than %d elements", BS_ARRAY_MAX_ELEMENTS);
	spec->indices = g_array_sized_new(FALSE, FALSE, sizeof(guint), (guint)total);
	for (guint i = 0; i < spec->ranges->len; i++) {
		const Range *r = &g_array_index(spec->ranges, Range, i);

		for (guint64 v = r->start; v <= r->end; v += r->step) {
			guint u = (guint)v;

			g_array_append_val(spec->indices, u);
		}
	}
	g_array_sort(spec->indices, cmp_uint);
	for (guint i = 0; i < spec->indices->len; i++) {
		guint v = g_array_index(spec->indices, guint, i);

		if (out > 0 && g_array_index(spec->indices, guint, out - 1) == v) {
			if (!merge)
				return fail(p, second_holder(spec->ranges, v)->col,
				    "index %u is given more than once", v);
			continue;
		}
		g_array_index(spec->indices, guint, out++) = v;
	}
	g_array_set_size(spec->indices, out);
	return TRUE;
}

/* [spec] and, when allow_limit, %N; p->pos is at '['. */
static gboolean
parse_brackets(Parser *p, BsArraySpec *spec, gboolean allow_limit)
{
	gsize open = p->pos + 1;

	p->pos++;
	for (;;) {
		Range r;

		if (!parse_range(p, &r))
			return FALSE;
		g_array_append_val(spec->ranges, r);
		if (p->text[p->pos] != ',')
			break;
		p->pos++;
	}
	if (p->text[p->pos] == '\0')
		return fail(p, open, "missing ']' for this '['");
	if (p->text[p->pos] != ']')
		return fail_here(p, "',' or ']'");
	p->pos++;
	if (allow_limit && p->text[p->pos] == '%') {
		gsize col;

		p->pos++;
		col = p->pos + 1;
		if (!parse_number(p, "a running limit", &spec->limit))
			return FALSE;
		if (spec->limit < 1)
			return fail(p, col, "the running limit must be at least 1");
	}
	if (p->text[p->pos] != '\0')
		return fail_here(p, allow_limit && spec->limit == 0 ?
		    "'%' or the end" : "the end");
	return TRUE;
}

static BsArraySpec *
spec_new(const char *name, gsize len)
{
	BsArraySpec *spec = g_new0(BsArraySpec, 1);

	spec->name = g_strndup(name, len);
	spec->ranges = g_array_new(FALSE, FALSE, sizeof(Range));
	return spec;
}

void
bs_array_spec_free(BsArraySpec *spec)
{
	if (spec == NULL)
		return;
	g_free(spec->name);
	g_array_free(spec->ranges, TRUE);
	if (spec->indices != NULL)
		g_array_free(spec->indices, TRUE);
	g_free(spec);
}

static gboolean
too_long(const char *text, const char *what, GError **error)
{
	if (strlen(text) <= BS_ARRAY_MAX_LEN)
		return FALSE;
	g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
	    "%s too long (%zu bytes, at most %d)", what, strlen(text),
	    BS_ARRAY_MAX_LEN);
	return TRUE;
}

gboolean
bs_array_parse(const char *job_name, guint max_index, BsArraySpec **out,
    GError **error)
{
	Parser p = { job_name, "job array", 0, max_index, error };
	const char *open = strchr(job_name, '[');
	BsArraySpec *spec;

	*out = NULL;
	if (too_long(job_name, "job name", error))
		return FALSE;
	if (open == NULL)
		return TRUE;
	if (open == job_name)
		return fail(&p, 1, "a job array needs a name before '['");
	spec = spec_new(job_name, (gsize)(open - job_name));
	p.pos = (gsize)(open - job_name);
	if (!parse_brackets(&p, spec, TRUE) || !expand(&p, spec, FALSE)) {
		bs_array_spec_free(spec);
		return FALSE;
	}
	*out = spec;
	return TRUE;
}

gboolean
bs_jobid_parse(const char *text, guint max_index, guint64 *job_id,
    BsArraySpec **indices, GError **error)
{
	Parser p = { text, "job ID", 0, max_index, error };
	BsArraySpec *spec;
	guint64 id = 0;

	*indices = NULL;
	if (too_long(text, "job ID", error))
		return FALSE;
	if (!g_ascii_isdigit(text[0]))
		return fail_here(&p, "a job ID");
	for (; g_ascii_isdigit(text[p.pos]); p.pos++) {
		id = id * 10 + (guint64)(text[p.pos] - '0');
		if (id > BS_JOB_ID_MAX)
			return fail(&p, 1, "job ID out of range");
	}
	if (text[p.pos] == '\0') {
		*job_id = id;
		return TRUE;
	}
	if (text[p.pos] != '[')
		return fail_here(&p, "'[' or the end");
	if (id == 0)
		return fail(&p, 1, "job 0 (all jobs) has no elements");
	spec = spec_new(text, p.pos);
	if (!parse_brackets(&p, spec, FALSE) || !expand(&p, spec, TRUE)) {
		bs_array_spec_free(spec);
		return FALSE;
	}
	*job_id = id;
	*indices = spec;
	return TRUE;
}

const char *
bs_array_spec_name(const BsArraySpec *spec)
{
	return spec->name;
}

guint
bs_array_spec_limit(const BsArraySpec *spec)
{
	return spec->limit;
}

guint
bs_array_spec_count(const BsArraySpec *spec)
{
	return spec->indices->len;
}

guint
bs_array_spec_index(const BsArraySpec *spec, guint i)
{
	g_return_val_if_fail(i < spec->indices->len, 0);
	return g_array_index(spec->indices, guint, i);
}

const guint *
bs_array_spec_indices(const BsArraySpec *spec, guint *n)
{
	*n = spec->indices->len;
	return (const guint *)(gpointer)spec->indices->data;
}

gboolean
bs_array_spec_contains(const BsArraySpec *spec, guint index)
{
	return bsearch(&index, spec->indices->data, spec->indices->len,
	    sizeof(guint), cmp_uint) != NULL;
}

char *
bs_array_spec_to_string(const BsArraySpec *spec)
{
	GString *s = g_string_new(spec->name);

	g_string_append_c(s, '[');
	for (guint i = 0; i < spec->ranges->len; i++) {
		const Range *r = &g_array_index(spec->ranges, Range, i);

		if (i > 0)
			g_string_append_c(s, ',');
		g_string_append_printf(s, "%u", r->start);
		if (r->has_end)
			g_string_append_printf(s, "-%u", r->end);
		if (r->has_step && r->step != 1)
			g_string_append_printf(s, ":%u", r->step);
	}
	g_string_append_c(s, ']');
	if (spec->limit > 0)
		g_string_append_printf(s, "%%%u", spec->limit);
	return g_string_free(s, FALSE);
}

char *
bs_array_element_name(const char *base, guint index)
{
	return g_strdup_printf("%s[%u]", base, index);
}
