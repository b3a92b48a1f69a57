/*
 * LSF 10.1's brace forms of a resource requirement string, split into
 * their parts before the sections are parsed:
 *
 *   alternative  {select[a] rusage[mem=1GB]} || {select[b]}
 *   compound     2*{select[a] rusage[mem=1]} + 4*{select[b]}
 *
 * Basalt applies one requirement to every slot of a job and places a job
 * with one requirement, so it keeps one part: the first alternative, or
 * the first part of a compound requirement for all of the compound's
 * slots (their sum).  Every part must still parse, so a typo in a later
 * part is an error rather than silently ignored.  The user's string is
 * kept as written (bjobs -l shows it); bs_resreq_to_string prints the
 * part in use.
 */
#include "config.h"

#include <string.h>

#include "resreq/resreq-int.h"
#include "util/error.h"

static const char *
skip_space(const char *c)
{
	while (g_ascii_isspace(*c))
		c++;
	return c;
}

/* Braces outside quotes? */
static gboolean
has_brace(const char *text)
{
	char quote = 0;

	for (const char *c = text; *c; c++) {
		if (quote != 0)
			quote = *c == quote ? 0 : quote;
		else if (*c == '"' || *c == '\'')
			quote = *c;
		else if (*c == '{' || *c == '}')
			return TRUE;
	}
	return FALSE;
}

static gboolean
forms_fail(GError **error, const char *text, const char *why)
{
	g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
	    "bad resource requirement \"%s\": %s", text, why);
	return FALSE;
}

/* One `{...}` from c (at the '{'); *end is after the '}'. */
static char *
brace_part(const char *text, const char *c, const char **end, GError **error)
{
	char quote = 0;

	for (const char *p = c + 1; *p; p++) {
		if (quote != 0) {
			quote = *p == quote ? 0 : quote;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == '{') {
			forms_fail(error, text, "nested {...} are not supported");
			return NULL;
		} else if (*p == '}') {
			*end = p + 1;
			return g_strndup(c + 1, (gsize)(p - c - 1));
		}
	}
	forms_fail(error, text, "missing '}'");
	return NULL;
}

gboolean
rr_forms_split(const char *text, RrForms *out, GError **error)
{
	const char *c = skip_space(text);
	char sep = 0; /* '|' or '+' once known */

	memset(out, 0, sizeof(*out));
	if (!has_brace(text))
		return TRUE;
	out->parts = g_ptr_array_new_with_free_func(g_free);
	for (;;) {
		guint64 mult = 1;
		gboolean has_mult = FALSE;
		char *part;

		if (g_ascii_isdigit(*c)) {
			char *e;

			mult = g_ascii_strtoull(c, &e, 10);
			c = skip_space(e);
			if (*c != '*' || mult == 0 || mult > 1000000)
				goto bad;
			c = skip_space(c + 1);
			has_mult = TRUE;
		}
		if (*c != '{')
			goto bad;
		if ((part = brace_part(text, c, &c, error)) == NULL)
			goto fail;
		g_ptr_array_add(out->parts, part);
		out->slots += (int)mult;
		out->multiplied = out->multiplied || has_mult;
		c = skip_space(c);
		if (*c == '\0')
			break;
		if (c[0] == '|' && c[1] == '|' && sep != '+') {
			sep = '|';
			c = skip_space(c + 2);
		} else if (c[0] == '+' && sep != '|') {
			sep = '+';
			c = skip_space(c + 1);
		} else {
			goto bad;
		}
	}
	out->alternative = sep == '|' || (sep == 0 && !out->multiplied);
	if (out->alternative && out->multiplied) {
		forms_fail(error, text, "an alternative ({...} || {...}) cannot "
		    "carry a slot count (n*{...})");
		goto fail;
	}
	if (out->alternative)
		out->slots = 0;
	return TRUE;
bad:
	forms_fail(error, text, "expected n*{...} + m*{...} (compound) or "
	    "{...} || {...} (alternative), nothing outside the braces");
fail:
	rr_forms_clear(out);
	return FALSE;
}

void
rr_forms_clear(RrForms *f)
{
	if (f->parts != NULL)
		g_ptr_array_free(f->parts, TRUE);
	memset(f, 0, sizeof(*f));
}
