/*
 * bjobs -o and -json (see bjobs-format.h); the fields themselves are in
 * bjobs-fields.c, the -o language in cmd-fields.c.
 *
 * Widths follow LSF's -o rules: no width means the value's own length;
 * "field:" the recommended width; "field:N" at most N characters, cut at
 * the end except JOB_NAME, which keeps its end behind a '*'; "field:-N"
 * right-aligns; "field:N:unit" shows a memory field in KB, MB, GB, TB, PB
 * or EB.  delimiter='x' or delimiter="x" replaces the blank between
 * fields.  Custom output prints "-" for no value, JSON an empty string.
 */
#include "config.h"

#include <string.h>

#include "bjobs-fields.h"
#include "cmd-fields.h"
#include "cmd-util.h"
#include "util/error.h"

struct BjobsFields {
	CmdFields *f;
};

/* The default table's columns, for -json without -o. */
static const char default_fields[] =
	"jobid user stat queue from_host exec_host job_name submit_time";

void
bjobs_fields_free(BjobsFields *f)
{
	if (f == NULL)
		return;
	cmd_fields_free(f->f);
	g_free(f);
}

static gboolean
find(const char *name, CmdFieldRef *ref)
{
	const BjobsFieldDef *d = bjobs_field_find(name);

	if (d == NULL)
		return FALSE;
	ref->def = d;
	ref->width = d->width;
	ref->has_kb = d->kb != NULL;
	return TRUE;
}

/* "all": every field of the table, in its order, by its first name. */
static char *
all_fields(void)
{
	gsize n;
	const BjobsFieldDef *t = bjobs_field_table(&n);
	GString *s = g_string_new(NULL);

	for (gsize i = 0; i < n; i++) {
		const char *sp = strchr(t[i].names, ' ');

		if (s->len > 0)
			g_string_append_c(s, ' ');
		g_string_append_len(s, t[i].names, sp != NULL ?
		    (gssize)(sp - t[i].names) : -1);
	}
	return g_string_free(s, FALSE);
}

BjobsFields *
bjobs_fields_parse(const char *spec, GError **error)
{
	g_autofree char *all = all_fields();
	CmdFields *cf = cmd_fields_parse("bjobs", spec, find, all, error);
	BjobsFields *f;

	if (cf == NULL)
		return NULL;
	f = g_new0(BjobsFields, 1);
	f->f = cf;
	return f;
}

/* One job's value of a field; FALSE when it has none. */
static gboolean
field_value(GString *v, const CmdField *fld, const Basalt__JobInfo *j,
	    const BjobsOpts *o)
{
	const BjobsFieldDef *def = fld->def;
	guint64 kb;

	if (fld->unit < 0)
		return def->get(v, j, o);
	if (!def->kb(j, &kb))
		return FALSE;
	cmd_fields_mem(v, fld->unit, kb);
	return TRUE;
}

static const BjobsFieldDef *
def_of(const CmdField *fld)
{
	return fld->def;
}

void
bjobs_format_custom(GString *out, const BjobsFields *f,
		    const Basalt__JobList *list, const BjobsOpts *o)
{
	guint n = f->f->fields->len;

	for (guint i = 0; !o->noheader && i < n; i++) {
		const CmdField *fld =
			    &g_array_index(f->f->fields, CmdField, i);

		cmd_fields_cell(out, fld, def_of(fld)->header, CMD_FIT_CUT,
				i + 1 == n);
		g_string_append(out, i + 1 < n ? f->f->delimiter : "\n");
	}
	for (size_t k = 0; k < list->n_jobs; k++) {
		for (guint i = 0; i < n; i++) {
			const CmdField *fld =
			    &g_array_index(f->f->fields, CmdField, i);
			g_autoptr(GString) v = g_string_new(NULL);

			if (!field_value(v, fld, list->jobs[k], o))
				g_string_assign(v, "-");
			/* Values of JOB_NAME keep their end. */
			cmd_fields_cell(out, fld, v->str,
				    def_of(fld)->flags & BJOBS_FIELD_TAIL ?
				    CMD_FIT_TAIL : CMD_FIT_CUT, i + 1 == n);
			g_string_append(out, i + 1 < n ? f->f->delimiter : "\n");
		}
	}
}

static void
json_record(GString *out, const BjobsFields *f, const Basalt__JobInfo *j,
	    const BjobsOpts *o)
{
	g_string_append(out, "    {\n");
	for (guint i = 0; i < f->f->fields->len; i++) {
		const CmdField *fld =
			    &g_array_index(f->f->fields, CmdField, i);
		g_autoptr(GString) v = g_string_new(NULL);

		if (!field_value(v, fld, j, o))
			g_string_truncate(v, 0);
		g_string_append(out, "      ");
		cmd_json_string(out, def_of(fld)->header);
		g_string_append_c(out, ':');
		cmd_json_string(out, v->str);
		g_string_append(out, i + 1 < f->f->fields->len ? ",\n" : "\n");
	}
	g_string_append(out, "    }");
}

void
bjobs_format_json(GString *out, const BjobsFields *f,
		  const Basalt__JobList *list, const Basalt__JobQuery *q,
		  const BjobsOpts *o)
{
	g_autoptr(BjobsFields) dflt = NULL;
	g_auto(GStrv) missing = q != NULL ? bjobs_missing_ids(q, list) : NULL;
	guint n_missing = missing != NULL ? g_strv_length(missing) : 0;
	size_t total = list->n_jobs + n_missing;

	if (f == NULL)
		f = dflt = bjobs_fields_parse(default_fields, NULL);
	g_string_append_printf(out, "{\n  \"COMMAND\":\"bjobs\",\n"
			       "  \"JOBS\":%zu,\n  \"RECORDS\":[\n", total);
	for (size_t k = 0; k < list->n_jobs; k++) {
		json_record(out, f, list->jobs[k], o);
		g_string_append(out, k + 1 < total ? ",\n" : "\n");
	}
	/* A job asked for by id and not found: LSF's error record. */
	for (guint k = 0; k < n_missing; k++) {
		g_autofree char *msg = g_strdup_printf("Job <%s> is not found",
						       missing[k]);

		g_string_append(out, "    {\n      \"JOBID\":");
		cmd_json_string(out, missing[k]);
		g_string_append(out, ",\n      \"ERROR\":");
		cmd_json_string(out, msg);
		g_string_append(out, list->n_jobs + k + 1 < total ?
				"\n    },\n" : "\n    }\n");
	}
	g_string_append(out, "  ]\n}\n");
}
