/*
 * Parsers for the structured values of lsb.queues (lsf-reference.md 1.1,
 * 1.2): QUEUE_NAME, HOSTS, PREEMPTION, FAIRSHARE, REQUEUE_EXIT_VALUES,
 * JOB_CONTROLS and its SUSPEND_CONTROL/RESUME_CONTROL/TERMINATE_CONTROL
 * aliases, SLOT_RESERVE, EXCLUSIVE, PROCLIMIT; and plain exit-code lists,
 * which lsb.applications uses too (SUCCESS_EXIT_VALUES).  Each either fills its field
 * completely or leaves it untouched and says why.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_queue_values.h"

#define QUEUE_NAME_MAX 59

gboolean
bs_conf_valid_name(const char *s, gboolean dots)
{
	if (s[0] == '\0')
		return FALSE;
	for (const char *p = s; *p != '\0'; p++)
		if (!g_ascii_isalnum(*p) && *p != '_' && *p != '-' && !(dots && *p == '.'))
			return FALSE;
	return TRUE;
}

gboolean
bs_conf_parse_queue_name(const BsConfKey *k, const char *value, void *field, GString *why)
{
	if (!bs_conf_valid_name(value, FALSE)) {
		g_string_append(why, "use letters, digits, _ and - only");
		return FALSE;
	}
	if (strlen(value) > QUEUE_NAME_MAX) {
		g_string_append_printf(why, "longer than %d characters", QUEUE_NAME_MAX);
		return FALSE;
	}
	if (strcmp(value, "default") == 0) {
		g_string_append(why, "the name default is reserved");
		return FALSE;
	}
	g_free(*(char **)field);
	*(char **)field = g_strdup(value);
	return TRUE;
}

/* Split `name+N` into name and preference; `+` must be followed by digits. */
static gboolean
split_pref(const char *word, char **name, int *pref, gboolean *has_pref, GString *why)
{
	const char *plus = strchr(word, '+');
	gint64 v;

	*has_pref = FALSE;
	*pref = 0;
	if (plus == NULL) {
		*name = g_strdup(word);
		return TRUE;
	}
	if (!bs_conf_parse_uint(plus + 1, G_MAXINT32, &v)) {
		g_string_append_printf(why, "'%s': + must be followed by a preference number", word);
		return FALSE;
	}
	*name = g_strndup(word, (gsize)(plus - word));
	*pref = (int)v;
	*has_pref = TRUE;
	return TRUE;
}

void
bs_conf_host_ref_free(gpointer p)
{
	BsHostRef *h = p;

	g_free(h->name);
	g_free(h->cluster);
	g_free(h);
}

static const struct {
	const char *word;
	BsHostRefKind kind;
	gboolean pref_ok;
} host_keywords[] = {
	{ "all", BS_HOSTREF_ALL, FALSE },
	{ "others", BS_HOSTREF_OTHERS, TRUE },
	{ "none", BS_HOSTREF_NONE, FALSE },
	{ "allremote", BS_HOSTREF_ALLREMOTE, TRUE },
};

static BsHostRef *
parse_host_word(const char *word, GString *why)
{
	g_autoptr(GString) w = g_string_new(word);
	BsHostRef *h = g_new0(BsHostRef, 1);
	char *at;

	if (w->str[0] == '~') {
		h->exclude = TRUE;
		g_string_erase(w, 0, 1);
	}
	if (!split_pref(w->str, &h->name, &h->pref, &h->has_pref, why))
		goto bad;
	h->kind = BS_HOSTREF_HOST;
	if ((at = strchr(h->name, '@')) != NULL) {
		h->kind = BS_HOSTREF_REMOTE;
		h->cluster = g_strdup(at + 1);
		*at = '\0';
		if (!bs_conf_valid_name(h->cluster, TRUE))
			goto badname;
	}
	for (guint i = 0; h->kind == BS_HOSTREF_HOST && i < G_N_ELEMENTS(host_keywords); i++) {
		if (strcmp(h->name, host_keywords[i].word) != 0)
			continue;
		h->kind = host_keywords[i].kind;
		if (h->exclude || (h->has_pref && !host_keywords[i].pref_ok)) {
			g_string_append_printf(why, "'%s': ~ and +pref do not apply to %s",
			    word, h->name);
			goto bad;
		}
	}
	if (!bs_conf_valid_name(h->name, TRUE))
		goto badname;
	return h;
badname:
	g_string_append_printf(why, "'%s' is not a host or host group name", word);
bad:
	bs_conf_host_ref_free(h);
	return NULL;
}

gboolean
bs_conf_parse_hosts(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_auto(GStrv) w = bs_conf_split_words(value);
	g_autoptr(GPtrArray) arr = g_ptr_array_new_with_free_func(bs_conf_host_ref_free);
	GPtrArray **out = field;

	for (guint i = 0; w[i] != NULL; i++) {
		BsHostRef *h = parse_host_word(w[i], why);

		if (h == NULL)
			return FALSE;
		if (h->kind == BS_HOSTREF_NONE && g_strv_length(w) > 1) {
			bs_conf_host_ref_free(h);
			g_string_append(why, "none cannot be combined with other hosts");
			return FALSE;
		}
		g_ptr_array_add(arr, h);
	}
	if (*out != NULL)
		g_ptr_array_unref(*out);
	*out = g_steal_pointer(&arr);
	return TRUE;
}

void
bs_conf_string_clear(void *field)
{
	g_clear_pointer((char **)field, g_free);
}

void
bs_conf_ptr_array_clear(void *field)
{
	g_clear_pointer((GPtrArray **)field, g_ptr_array_unref);
}

/* ---- PREEMPTION ---------------------------------------------------------- */

static void
queue_ref_free(gpointer p)
{
	BsQueueRef *r = p;

	g_free(r->queue);
	g_free(r);
}

static GPtrArray *
parse_queue_list(const char *kw, const char *arg, gboolean pref_ok, GString *why)
{
	g_auto(GStrv) w = bs_conf_split_words(arg);
	g_autoptr(GPtrArray) arr = g_ptr_array_new_with_free_func(queue_ref_free);

	for (guint i = 0; w[i] != NULL; i++) {
		BsQueueRef *r = g_new0(BsQueueRef, 1);

		g_ptr_array_add(arr, r);
		if (!split_pref(w[i], &r->queue, &r->pref, &r->has_pref, why))
			return NULL;
		if (r->has_pref && !pref_ok) {
			g_string_append_printf(why, "'%s': +preference is only for PREEMPTIVE", w[i]);
			return NULL;
		}
		if (!bs_conf_valid_name(r->queue, FALSE)) {
			g_string_append_printf(why, "'%s' in %s is not a queue name", w[i], kw);
			return NULL;
		}
	}
	return arr->len > 0 ? g_steal_pointer(&arr) : NULL;
}

void
bs_conf_preemption_clear(void *field)
{
	BsPreemption *p = field;

	g_clear_pointer(&p->preemptive_queues, g_ptr_array_unref);
	g_clear_pointer(&p->preemptable_queues, g_ptr_array_unref);
	p->preemptive = p->preemptable = FALSE;
}

static gboolean
preemption_item(const BsKwArg *a, BsPreemption *p, GString *why)
{
	gboolean ive = g_ascii_strcasecmp(a->name, "PREEMPTIVE") == 0;
	gboolean able = g_ascii_strcasecmp(a->name, "PREEMPTABLE") == 0;
	GPtrArray *list = NULL;

	if (!ive && !able) {
		g_string_append_printf(why, "unknown keyword %s (expected PREEMPTIVE or PREEMPTABLE)",
		    a->name);
		return FALSE;
	}
	if ((ive && p->preemptive) || (able && p->preemptable)) {
		g_string_append_printf(why, "%s given twice", a->name);
		return FALSE;
	}
	if (a->arg != NULL && (list = parse_queue_list(a->name, a->arg, ive, why)) == NULL &&
	    why->len > 0)
		return FALSE;
	if (ive) {
		p->preemptive = TRUE;
		p->preemptive_queues = list;
	} else {
		p->preemptable = TRUE;
		p->preemptable_queues = list;
	}
	return TRUE;
}

gboolean
bs_conf_parse_preemption(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_autoptr(GPtrArray) items = NULL;
	BsPreemption p = { 0 };

	if (!bs_conf_parse_kwargs(value, &items, why))
		return FALSE;
	for (guint i = 0; i < items->len; i++)
		if (!preemption_item(items->pdata[i], &p, why)) {
			bs_conf_preemption_clear(&p);
			return FALSE;
		}
	bs_conf_preemption_clear(field);
	*(BsPreemption *)field = p;
	return TRUE;
}

/* ---- FAIRSHARE = USER_SHARES[[u, n] ...] -------------------------------- */

gboolean
bs_conf_parse_fairshare(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_autoptr(GPtrArray) items = NULL;
	GPtrArray *shares = NULL;
	const BsKwArg *a;

	if (!bs_conf_parse_kwargs(value, &items, why))
		return FALSE;
	if (items->len != 1 || g_ascii_strcasecmp((a = items->pdata[0])->name, "USER_SHARES") != 0 ||
	    a->arg == NULL) {
		g_string_append(why, "expected USER_SHARES[[name, shares] ...]");
		return FALSE;
	}
	if (!bs_conf_parse_shares(a->arg, &shares, why))
		return FALSE;
	bs_conf_ptr_array_clear(field);
	*(GPtrArray **)field = shares;
	return TRUE;
}

/* ---- REQUEUE_EXIT_VALUES = [code ...] [EXCLUDE(code ...)] --------------- */

static gboolean
add_codes(const char *text, GArray *to, GString *why)
{
	g_auto(GStrv) w = bs_conf_split_words(text);

	for (guint i = 0; w[i] != NULL; i++) {
		int c;

		if (!bs_conf_parse_int(w[i], 0, 255, &c, why)) {
			g_string_prepend(why, "exit code: ");
			return FALSE;
		}
		g_array_append_val(to, c);
	}
	return TRUE;
}

void
bs_conf_requeue_clear(void *field)
{
	BsRequeueExit *r = field;

	g_clear_pointer(&r->codes, g_array_unref);
	g_clear_pointer(&r->exclude, g_array_unref);
}

gboolean
bs_conf_parse_requeue(const BsConfKey *k, const char *value, void *field, GString *why)
{
	BsRequeueExit r = { g_array_new(FALSE, FALSE, sizeof(int)),
	    g_array_new(FALSE, FALSE, sizeof(int)) };
	g_autoptr(GString) plain = g_string_new(NULL);
	const char *p = value;

	while (*p != '\0') {
		if (g_ascii_strncasecmp(p, "EXCLUDE(", 8) == 0) {
			const char *close = strchr(p, ')');
			g_autofree char *inner = NULL;

			if (close == NULL) {
				g_string_append(why, "EXCLUDE( without )");
				goto bad;
			}
			inner = g_strndup(p + 8, (gsize)(close - p - 8));
			if (!add_codes(inner, r.exclude, why))
				goto bad;
			p = close + 1;
		} else {
			g_string_append_c(plain, *p++);
		}
	}
	if (!add_codes(plain->str, r.codes, why))
		goto bad;
	bs_conf_requeue_clear(field);
	*(BsRequeueExit *)field = r;
	return TRUE;
bad:
	bs_conf_requeue_clear(&r);
	return FALSE;
}

/* A plain list of exit codes (lsb.applications SUCCESS_EXIT_VALUES) into a
 * GArray* of int. */
gboolean
bs_conf_parse_exit_codes(const BsConfKey *k, const char *value, void *field, GString *why)
{
	GArray *codes = g_array_new(FALSE, FALSE, sizeof(int));

	if (!add_codes(value, codes, why)) {
		g_array_unref(codes);
		return FALSE;
	}
	bs_conf_int_array_clear(field);
	*(GArray **)field = codes;
	return TRUE;
}

void
bs_conf_int_array_clear(void *field)
{
	g_clear_pointer((GArray **)field, g_array_unref);
}

/* ---- JOB_CONTROLS and aliases -------------------------------------------- */

void
bs_conf_job_controls_clear(void *field)
{
	BsJobControls *c = field;

	g_clear_pointer(&c->suspend, g_free);
	g_clear_pointer(&c->resume, g_free);
	g_clear_pointer(&c->terminate, g_free);
}

static char **
control_slot(BsJobControls *c, const char *name)
{
	if (g_ascii_strcasecmp(name, "SUSPEND") == 0)
		return &c->suspend;
	if (g_ascii_strcasecmp(name, "RESUME") == 0)
		return &c->resume;
	if (g_ascii_strcasecmp(name, "TERMINATE") == 0)
		return &c->terminate;
	return NULL;
}

static gboolean
set_control(BsJobControls *c, const char *action, const char *arg, GString *why)
{
	char **slot = control_slot(c, action);
	g_autofree char *v = g_strstrip(g_strdup(arg != NULL ? arg : ""));

	if (slot == NULL) {
		g_string_append_printf(why,
		    "unknown action %s (expected SUSPEND, RESUME or TERMINATE)", action);
		return FALSE;
	}
	if (v[0] == '\0') {
		g_string_append_printf(why, "%s needs [signal or command]", action);
		return FALSE;
	}
	if (*slot != NULL) {
		g_string_append_printf(why, "the %s action is set twice", action);
		return FALSE;
	}
	*slot = g_steal_pointer(&v);
	return TRUE;
}

gboolean
bs_conf_parse_job_controls(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_autoptr(GPtrArray) items = NULL;
	BsJobControls c = *(BsJobControls *)field;
	BsJobControls fresh = { 0 };

	if (!bs_conf_parse_kwargs(value, &items, why))
		return FALSE;
	for (guint i = 0; i < items->len; i++) {
		const BsKwArg *a = items->pdata[i];

		/* Check against what aliases already set, then fill `fresh`. */
		if ((control_slot(&c, a->name) != NULL && *control_slot(&c, a->name) != NULL) ||
		    !set_control(&fresh, a->name, a->arg, why)) {
			if (why->len == 0)
				g_string_append_printf(why, "the %s action is set twice", a->name);
			bs_conf_job_controls_clear(&fresh);
			return FALSE;
		}
	}
	for (const char *const *n = (const char *const[]){ "SUSPEND", "RESUME", "TERMINATE", NULL };
	    *n != NULL; n++)
		if (*control_slot(&fresh, *n) != NULL)
			*control_slot(field, *n) = g_steal_pointer(control_slot(&fresh, *n));
	return TRUE;
}

/* SUSPEND_CONTROL = action (brackets optional): the key names the action. */
gboolean
bs_conf_parse_control_alias(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_autofree char *action = g_strndup(k->key, strlen(k->key) - strlen("_CONTROL"));
	g_autofree char *v = g_strstrip(g_strdup(value));
	gsize n = strlen(v);

	if (n >= 2 && v[0] == '[' && v[n - 1] == ']') {
		v[n - 1] = '\0';
		memmove(v, v + 1, n - 1);
	}
	return set_control(field, action, v, why);
}

/* ---- SLOT_RESERVE, EXCLUSIVE, PROCLIMIT, DISPATCH_ORDER ------------------ */

gboolean
bs_conf_parse_slot_reserve(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_autoptr(GPtrArray) items = NULL;
	const BsKwArg *a;
	int n;

	if (!bs_conf_parse_kwargs(value, &items, why))
		return FALSE;
	if (items->len != 1 || g_ascii_strcasecmp((a = items->pdata[0])->name,
	    "MAX_RESERVE_TIME") != 0 || a->arg == NULL) {
		g_string_append(why, "expected MAX_RESERVE_TIME[n]");
		return FALSE;
	}
	if (!bs_conf_parse_int(g_strstrip(a->arg), 1, G_MAXINT32, &n, why))
		return FALSE;
	*(int *)field = n;
	return TRUE;
}

void
bs_conf_exclusive_clear(void *field)
{
	g_clear_pointer(&((BsExclusive *)field)->cu, g_free);
}

gboolean
bs_conf_parse_exclusive(const BsConfKey *k, const char *value, void *field, GString *why)
{
	BsExclusive *e = field;
	gsize n = strlen(value);

	if (g_ascii_strncasecmp(value, "CU[", 3) == 0 && value[n - 1] == ']') {
		g_free(e->cu);
		e->cu = g_strndup(value + 3, n - 4);
		e->enabled = TRUE;
		return TRUE;
	}
	if (!bs_conf_parse_bool(value, &e->enabled, why)) {
		g_string_append(why, " or CU[...]");
		return FALSE;
	}
	return TRUE;
}

gboolean
bs_conf_parse_proclimit(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_auto(GStrv) w = bs_conf_split_words(value);
	guint n = g_strv_length(w);
	int v[3];
	BsProcLimit *l = field;

	if (n < 1 || n > 3) {
		g_string_append(why, "expected [minimum [default]] maximum");
		return FALSE;
	}
	for (guint i = 0; i < n; i++)
		if (!bs_conf_parse_int(w[i], 1, G_MAXINT32, &v[i], why))
			return FALSE;
	for (guint i = 1; i < n; i++)
		if (v[i - 1] > v[i]) {
			g_string_append(why, "values must not decrease");
			return FALSE;
		}
	l->max = v[n - 1];
	l->min = n >= 2 ? v[0] : BS_CONF_UNLIMITED;
	l->def = n == 3 ? v[1] : BS_CONF_UNLIMITED;
	return TRUE;
}

gboolean
bs_conf_parse_dispatch_order(const BsConfKey *k, const char *value, void *field, GString *why)
{
	if (g_ascii_strcasecmp(value, "QUEUE") != 0) {
		g_string_append(why, "the only value is QUEUE");
		return FALSE;
	}
	*(gboolean *)field = TRUE;
	return TRUE;
}

/* ---- LOCAL_MAX_PREEXEC_RETRY_ACTION --------------------------------------- */

gboolean
bs_conf_parse_preexec_action(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_autofree char *v = g_strstrip(g_strdup(value));

	if (g_ascii_strcasecmp(v, "SUSPEND") == 0) {
		*(int *)field = BS_PREEXEC_ACTION_SUSPEND;
	} else if (g_ascii_strcasecmp(v, "EXIT") == 0) {
		*(int *)field = BS_PREEXEC_ACTION_EXIT;
	} else {
		g_string_append_printf(why, "expected SUSPEND or EXIT, not \"%s\"", v);
		return FALSE;
	}
	return TRUE;
}
