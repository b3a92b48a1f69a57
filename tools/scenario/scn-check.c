/*
 * Expectations against the plan (scenario.h, scn_check).  Decisions are
 * exact: a scenario fails when the scheduler does something it did not
 * expect, as much as when it misses something.  Pending reasons, deserved
 * shares and pool sizes are checked for what the file names, since every
 * job left pending has a reason and spelling them all out would bury what
 * a scenario is about.
 */
#include "config.h"

#include <string.h>

#include "tools/scenario/scn-internal.h"

const char *
scn_kind_name(ScnKind k)
{
	static const char *const names[] = {
		"dispatch", "preempt", "terminate", "resume", "window-suspend",
		"window-resume", "window-terminate", "reserve", "reserve-ban", "pending", "deserved", "pool",
		"slots", "wake", "quota", "alloc", "reclaim", "reclaim-requeue",
	};

	return (guint)k < G_N_ELEMENTS(names) ? names[k] : "?";
}

static gboolean
is_decision(const ScnLine *l)
{
	return scn_kind_is_decision(l->kind);
}

/* "pending 13" of "pending 13 \"...\"": what a keyed line is about
 * ("wake": there is one). */
static char *
key_of(const char *text)
{
	const char *sp = strchr(text, ' ');

	if (g_str_has_prefix(text, "wake "))
		return g_strdup("wake");
	/* "quota /X/A rg1": every word but the figure. */
	if (g_str_has_prefix(text, "quota ") || g_str_has_prefix(text, "alloc "))
		return g_strndup(text, (gsize)(strrchr(text, ' ') - text));
	sp = sp != NULL ? strchr(sp + 1, ' ') : NULL;
	return sp != NULL ? g_strndup(text, (gsize)(sp - text)) : g_strdup(text);
}

/* Whether the file counts the slots of this dispatch's queue. */
static gboolean
counted(const Scenario *s, const ScnLine *d)
{
	for (guint i = 0; d->kind == SCN_DISPATCH && s->nothing_line == 0 &&
	    i < s->expect->len; i++) {
		const ScnLine *e = g_ptr_array_index(s->expect, i);

		if (e->kind == SCN_SLOTS && e->queue == d->queue)
			return TRUE;
	}
	return FALSE;
}

static void
missing(GString *r, const Scenario *s, const ScnLine *e)
{
	g_string_append_printf(r, "- %s    (%s:%d)\n", e->text, s->path, e->line);
}

static gboolean
check_decisions(const Scenario *s, GPtrArray *actual, GString *r)
{
	g_autoptr(GPtrArray) want = g_ptr_array_new();
	g_autoptr(GPtrArray) got = g_ptr_array_new();
	g_autofree gboolean *used = NULL;
	gboolean ok = TRUE;

	for (guint i = 0; i < s->expect->len; i++)
		if (is_decision(g_ptr_array_index(s->expect, i)))
			g_ptr_array_add(want, g_ptr_array_index(s->expect, i));
	for (guint i = 0; i < actual->len; i++)
		if (is_decision(g_ptr_array_index(actual, i)))
			g_ptr_array_add(got, g_ptr_array_index(actual, i));
	used = g_new0(gboolean, got->len + 1);
	for (guint i = 0; i < want->len; i++) {
		const ScnLine *e = g_ptr_array_index(want, i);
		guint k;

		for (k = 0; k < got->len; k++)
			if (!used[k] && strcmp(((ScnLine *)g_ptr_array_index(got, k))->text,
			    e->text) == 0)
				break;
		if (k < got->len) {
			used[k] = TRUE;
			continue;
		}
		missing(r, s, e);
		ok = FALSE;
	}
	for (guint k = 0; k < got->len; k++) {
		if (used[k] || counted(s, g_ptr_array_index(got, k)))
			continue;
		g_string_append_printf(r, "+ %s\n",
		    ((ScnLine *)g_ptr_array_index(got, k))->text);
		ok = FALSE;
	}
	if (!ok || !s->ordered)
		return ok;
	/* In order: the expected lines, against the plan's lines they matched
	 * (dispatches covered by a slot count have no line to be in order). */
	for (guint i = 0, k = 0; i < want->len; i++, k++) {
		while (k < got->len && !used[k])
			k++;
		if (strcmp(((ScnLine *)g_ptr_array_index(want, i))->text,
		    ((ScnLine *)g_ptr_array_index(got, k))->text) == 0)
			continue;
		g_string_append(r, "decisions in another order than expected; the plan's:\n");
		for (guint j = 0; j < got->len; j++)
			g_string_append_printf(r, "  %s\n",
			    ((ScnLine *)g_ptr_array_index(got, j))->text);
		return FALSE;
	}
	return TRUE;
}

static gboolean
check_keyed(const Scenario *s, GPtrArray *actual, GString *r)
{
	gboolean ok = TRUE;

	for (guint i = 0; i < s->expect->len; i++) {
		const ScnLine *e = g_ptr_array_index(s->expect, i);
		g_autofree char *key = NULL;
		const ScnLine *found = NULL;

		if (is_decision(e))
			continue;
		key = key_of(e->text);
		for (guint k = 0; k < actual->len && found == NULL; k++) {
			const ScnLine *a = g_ptr_array_index(actual, k);
			g_autofree char *ak = a->kind == e->kind ? key_of(a->text) : NULL;

			if (ak != NULL && strcmp(ak, key) == 0)
				found = a;
		}
		if (found != NULL && strcmp(found->text, e->text) == 0)
			continue;
		missing(r, s, e);
		if (found != NULL)
			g_string_append_printf(r, "+ %s\n", found->text);
		else if (e->kind == SCN_PENDING)
			g_string_append_printf(r, "+ (%s was dispatched)\n", key + 8);
		ok = FALSE;
	}
	return ok;
}

gboolean
scn_check(const Scenario *s, GPtrArray *actual, GString *report)
{
	gboolean ok = check_decisions(s, actual, report);

	return check_keyed(s, actual, report) && ok;
}
