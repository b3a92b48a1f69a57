/*
 * Diagnostics collection for the configuration reader (see diag.h).
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "conf/diag.h"

static void
diag_free(gpointer p)
{
	BsDiag *diag = p;

	g_free(diag->file);
	g_free(diag->message);
	g_free(diag);
}

BsDiags *
bs_diags_new(void)
{
	BsDiags *d = g_new0(BsDiags, 1);

	d->items = g_ptr_array_new_with_free_func(diag_free);
	return d;
}

void
bs_diags_free(BsDiags *d)
{
	if (d == NULL)
		return;
	g_ptr_array_unref(d->items);
	g_free(d);
}

void
bs_diag_add(BsDiags *d, BsDiagSeverity sev, const char *file, int line,
    const char *fmt, ...)
{
	BsDiag *diag;
	va_list ap;

	if (d == NULL)
		return;
	diag = g_new0(BsDiag, 1);
	diag->severity = sev;
	diag->file = g_strdup(file != NULL ? file : "?");
	diag->line = line;
	va_start(ap, fmt);
	diag->message = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_ptr_array_add(d->items, diag);
	if (sev == BS_DIAG_ERROR)
		d->n_errors++;
	else
		d->n_warnings++;
}

char *
bs_diag_format(const BsDiag *diag)
{
	const char *warn = diag->severity == BS_DIAG_WARNING ? "warning: " : "";

	if (diag->line > 0)
		return g_strdup_printf("%s:%d: %s%s", diag->file, diag->line,
		    warn, diag->message);
	return g_strdup_printf("%s: %s%s", diag->file, warn, diag->message);
}

char *
bs_diags_to_string(const BsDiags *d)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; d != NULL && i < d->items->len; i++) {
		g_autofree char *s = bs_diag_format(d->items->pdata[i]);

		g_string_append(out, s);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

static guint
file_rank(const char *file, const char *const *order)
{
	guint i;

	if (order == NULL)
		return 0;
	for (i = 0; order[i] != NULL; i++)
		if (strcmp(order[i], file) == 0)
			return i;
	return i;
}

static gint
diag_cmp(gconstpointer a, gconstpointer b, gpointer order)
{
	const BsDiag *x = *(BsDiag *const *)a;
	const BsDiag *y = *(BsDiag *const *)b;
	guint fx = file_rank(x->file, order), fy = file_rank(y->file, order);

	if (fx != fy)
		return fx < fy ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

void
bs_diags_sort_from(BsDiags *d, guint mark, const char *const *file_order)
{
	GPtrArray *tail;

	if (d == NULL || mark >= d->items->len)
		return;
	/* g_ptr_array_sort_with_data is stable (GLib >= 2.32): equal keys
	 * keep the order in which they were found. */
	tail = g_ptr_array_new();
	for (guint i = mark; i < d->items->len; i++)
		g_ptr_array_add(tail, d->items->pdata[i]);
	g_ptr_array_sort_with_data(tail, diag_cmp, (gpointer)file_order);
	for (guint i = 0; i < tail->len; i++)
		d->items->pdata[mark + i] = tail->pdata[i];
	g_ptr_array_free(tail, TRUE);
}
