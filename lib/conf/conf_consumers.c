/*
 * lsb.consumers: ResourceGroup, Consumer and Plan sections into
 * BsConsumersConf (conf_consumers.h says what each holds).  Every problem
 * is reported at its line: the checks decisions.md ("Hybrid policy") lists
 * as errors (a child owning more than its parent, reserved above owned, a
 * limit below reserved) and those of the tree itself (a parent declared
 * after its child, POLICY below the first level, an unknown consumer or
 * resource group); a root-level OWNED sum different from PLAN_SLOTS is a
 * warning.  What needs other files (a queue's CONSUMER naming a leaf, a
 * queue both in a slot pool and mapped to a consumer) is checked where
 * the files meet.
 *
 * A Plan section mixes `KEY = value` lines with a column table, which the
 * lexer does not: the key lines are taken out of the text first (their
 * lines kept blank so every line number stays right) and typed here.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "conf/conf_consumers.h"
#include "conf/conf_internal.h"
#include "conf/conf_queue_values.h"
#include "conf/conf_time.h"
#include "util/warning.h"

#define IMAX 2147483647.0
#define PATH_MAX_LEN 511

/* A `KEY = value` line of a Plan section, taken out before lexing. */
typedef struct {
	int plan_line;          /* the Begin Plan it belongs to */
	int line;
	char *key;
	char *value;
} PlanKey;

static void
plan_key_free(gpointer p)
{
	PlanKey *k = p;

	g_free(k->key);
	g_free(k->value);
	g_free(k);
}

static void
group_free(gpointer p)
{
	BsResourceGroupConf *g = p;

	g_free(g->name);
	g_strfreev(g->hosts);
	if (g->key_lines != NULL)
		g_hash_table_unref(g->key_lines);
	g_free(g);
}

static void
consumer_free(gpointer p)
{
	BsConsumerConf *c = p;

	g_free(c->path);
	g_strfreev(c->users);
	g_free(c->warning_action);
	if (c->key_lines != NULL)
		g_hash_table_unref(c->key_lines);
	g_free(c);
}

static void
plan_free(gpointer p)
{
	BsPlanConf *pl = p;

	g_ptr_array_unref(pl->rows);
	if (pl->windows != NULL)
		g_array_unref(pl->windows);
	g_free(pl);
}

BsConsumersConf *
bs_conf_consumers_new(void)
{
	BsConsumersConf *c = g_new0(BsConsumersConf, 1);

	c->groups = g_ptr_array_new_with_free_func(group_free);
	c->consumers = g_ptr_array_new_with_free_func(consumer_free);
	c->consumer_by_path = g_hash_table_new(g_str_hash, g_str_equal);
	c->plans = g_ptr_array_new_with_free_func(plan_free);
	return c;
}

void
bs_conf_consumers_free(BsConsumersConf *c)
{
	if (c == NULL)
		return;
	g_hash_table_unref(c->consumer_by_path);
	g_ptr_array_unref(c->consumers);
	g_ptr_array_unref(c->groups);
	g_ptr_array_unref(c->plans);
	g_free(c);
}

/* ---- consumer paths ---------------------------------------------------- */

gboolean
bs_conf_valid_consumer_path(const char *s, GString *why)
{
	gsize n = strlen(s);

	if (s[0] != '/' || n < 2) {
		g_string_append(why, "a consumer is an absolute path such as /X/A");
		return FALSE;
	}
	if (n > PATH_MAX_LEN) {
		g_string_append_printf(why, "longer than %d characters", PATH_MAX_LEN);
		return FALSE;
	}
	for (const char *p = s + 1; *p != '\0'; p++) {
		if (*p == '/' && (p[-1] == '/' || p[1] == '\0')) {
			g_string_append(why, "empty name in the path");
			return FALSE;
		}
		if (*p != '/' && !g_ascii_isalnum(*p) && *p != '_' && *p != '-' && *p != '.') {
			g_string_append(why, "use letters, digits, _, - and . between the slashes");
			return FALSE;
		}
	}
	return TRUE;
}

gboolean
bs_conf_parse_consumer_path(const BsConfKey *k, const char *value, void *field, GString *why)
{
	(void)k;
	if (!bs_conf_valid_consumer_path(value, why))
		return FALSE;
	g_free(*(char **)field);
	*(char **)field = g_strdup(value);
	return TRUE;
}

/* ---- pre-lexing: Plan key lines ---------------------------------------- */

static gboolean
word_is(const char *p, const char *word, const char **rest)
{
	gsize n = strlen(word);

	if (g_ascii_strncasecmp(p, word, n) != 0)
		return FALSE;
	if (p[n] != '\0' && !g_ascii_isspace(p[n]))
		return FALSE;
	*rest = p + n;
	return TRUE;
}

/* `Begin Plan` / `End Plan` (any case, blanks around). */
static gboolean
plan_marker(const char *line, const char *which)
{
	const char *p = line, *rest;

	while (g_ascii_isspace(*p))
		p++;
	if (!word_is(p, which, &rest))
		return FALSE;
	while (g_ascii_isspace(*rest))
		rest++;
	return word_is(rest, "Plan", &rest);
}

/* IDENT = value: the key and value, else FALSE. */
static gboolean
key_line(const char *line, char **key, char **value)
{
	const char *p = line, *k;

	while (g_ascii_isspace(*p))
		p++;
	k = p;
	while (g_ascii_isalnum(*p) || *p == '_')
		p++;
	if (p == k)
		return FALSE;
	*key = g_strndup(k, p - k);
	while (g_ascii_isspace(*p))
		p++;
	if (*p != '=') {
		g_free(*key);
		return FALSE;
	}
	*value = g_strstrip(g_strdup(p + 1));
	return TRUE;
}

/* The text with the key lines of Plan sections blanked; the keys in `keys`. */
static char *
take_plan_keys(const char *text, gsize len, GPtrArray *keys)
{
	g_autofree char *copy = g_strndup(text, len);
	g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);
	int in_plan = 0;

	for (int i = 0; lines[i] != NULL; i++) {
		char *key, *value, *hash;

		if (plan_marker(lines[i], "Begin")) {
			in_plan = i + 1;
			continue;
		}
		if (plan_marker(lines[i], "End")) {
			in_plan = 0;
			continue;
		}
		if (in_plan == 0)
			continue;
		/* A comment after the value is not part of it. */
		if ((hash = strchr(lines[i], '#')) != NULL && strchr(lines[i], '=') != NULL &&
		    hash > strchr(lines[i], '='))
			*hash = '\0';
		if (!key_line(lines[i], &key, &value))
			continue;
		PlanKey *pk = g_new0(PlanKey, 1);

		pk->plan_line = in_plan;
		pk->line = i + 1;
		pk->key = key;
		pk->value = value;
		g_ptr_array_add(keys, pk);
		lines[i][0] = '\0';
	}
	return g_strjoinv("\n", lines);
}

/* ---- ResourceGroup ------------------------------------------------------ */

static const BsLexPair *
pair(const BsLexSection *s, const char *key)
{
	for (guint i = 0; i < s->pairs->len; i++)
		if (g_ascii_strcasecmp(((BsLexPair *)s->pairs->pdata[i])->key, key) == 0)
			return s->pairs->pdata[i];
	return NULL;
}

static void
unknown_keys(const BsConfCtx *ctx, const BsLexSection *s, const char *const *known)
{
	for (guint i = 0; i < s->pairs->len; i++) {
		const BsLexPair *lp = s->pairs->pdata[i];
		gboolean ok = FALSE;

		for (guint k = 0; known[k] != NULL; k++)
			ok |= g_ascii_strcasecmp(lp->key, known[k]) == 0;
		if (!ok)
			ctx_warning(ctx, lp->line, "unknown parameter %s in section %s, ignoring",
			    lp->key, s->name);
	}
}

static gboolean
host_word_known(const BsConfig *cfg, const char *w)
{
	if (w[0] == '~')
		w++;
	if (strcmp(w, "all") == 0 || bs_config_host_group(cfg, w) != NULL)
		return TRUE;
	return cfg->cluster != NULL && g_hash_table_contains(cfg->cluster->host_by_name, w);
}

static void
load_group(BsConfig *cfg, const BsConfCtx *ctx, const BsLexSection *s)
{
	static const char *const keys[] = { "NAME", "HOSTS", "PLAN_SLOTS", NULL };
	BsConsumersConf *cc = cfg->consumers;
	const BsLexPair *name = pair(s, "NAME"), *hosts = pair(s, "HOSTS");
	const BsLexPair *slots = pair(s, "PLAN_SLOTS");
	g_autoptr(GString) why = g_string_new(NULL);
	BsResourceGroupConf *g;

	unknown_keys(ctx, s, keys);
	if (name == NULL) {
		ctx_error(ctx, s->line, "ResourceGroup section without NAME");
		return;
	}
	if (!bs_conf_valid_name(name->value, TRUE)) {
		ctx_error(ctx, name->line, "bad value '%s' for NAME: use letters, digits, "
		    "_, - and . only", name->value);
		return;
	}
	if (bs_config_resource_group(cfg, name->value) != NULL) {
		ctx_error(ctx, name->line, "resource group %s is defined twice", name->value);
		return;
	}
	g = g_new0(BsResourceGroupConf, 1);
	g->name = g_strdup(name->value);
	g->line = s->line;
	g->plan_slots = BS_CONF_UNLIMITED;
	for (guint i = 0; i < s->pairs->len; i++) {
		const BsLexPair *lp = s->pairs->pdata[i];

		bs_conf_record_line(&g->key_lines, lp->key, lp->line);
	}
	if (hosts != NULL) {
		g->hosts = bs_conf_split_words(hosts->value);
		for (guint i = 0; g->hosts[i] != NULL; i++)
			if (!host_word_known(cfg, g->hosts[i]))
				ctx_error(ctx, hosts->line, "resource group %s: unknown host or "
				    "host group %s", g->name, g->hosts[i]);
		if (g->hosts[0] == NULL) {
			g_strfreev(g->hosts);
			g->hosts = NULL;
		}
	}
	if (slots != NULL && !bs_conf_parse_int(slots->value, 1, IMAX, &g->plan_slots, why))
		ctx_error(ctx, slots->line, "bad value '%s' for PLAN_SLOTS: %s", slots->value,
		    why->str);
	g_ptr_array_add(cc->groups, g);
}

/* ---- Consumer ----------------------------------------------------------- */

static gboolean
parse_policy(const char *v, BsConsumerPolicy *out)
{
	static const struct { const char *name; BsConsumerPolicy p; } names[] = {
		{ "hybrid", BS_CONSUMER_POLICY_HYBRID },
		{ "ownership", BS_CONSUMER_POLICY_OWNERSHIP },
		{ "share", BS_CONSUMER_POLICY_SHARE },
	};

	for (guint i = 0; i < G_N_ELEMENTS(names); i++)
		if (g_ascii_strcasecmp(v, names[i].name) == 0) {
			*out = names[i].p;
			return TRUE;
		}
	return FALSE;
}

/* WARNING_ACTION (issue 18): a signal, checked as bsub -wa is. */
static void
consumer_warning_action(const BsConfCtx *ctx, const BsLexSection *s,
    BsConsumerConf *c)
{
	const BsLexPair *wa = pair(s, "WARNING_ACTION");

	if (wa == NULL)
		return;
	if (bs_warning_signal_parse(wa->value) < 0) {
		ctx_error(ctx, wa->line, "consumer %s: bad value '%s' for "
		    "WARNING_ACTION: a signal name or number (URG, USR1, ...)",
		    c->path, wa->value);
		return;
	}
	c->warning_action = g_strdup(wa->value);
}

static void
load_consumer(BsConfig *cfg, const BsConfCtx *ctx, const BsLexSection *s)
{
	static const char *const keys[] = { "NAME", "POLICY", "USERS",
		"WARNING_ACTION", NULL };
	BsConsumersConf *cc = cfg->consumers;
	const BsLexPair *name = pair(s, "NAME"), *policy = pair(s, "POLICY");
	const BsLexPair *users = pair(s, "USERS");
	g_autoptr(GString) why = g_string_new(NULL);
	g_autofree char *parent = NULL;
	BsConsumerConf *c;
	int pidx = -1;

	unknown_keys(ctx, s, keys);
	if (name == NULL) {
		ctx_error(ctx, s->line, "Consumer section without NAME");
		return;
	}
	if (!bs_conf_valid_consumer_path(name->value, why)) {
		ctx_error(ctx, name->line, "bad value '%s' for NAME: %s", name->value, why->str);
		return;
	}
	if (bs_config_consumer_index(cfg, name->value) >= 0) {
		ctx_error(ctx, name->line, "consumer %s is defined twice", name->value);
		return;
	}
	parent = g_strndup(name->value, strrchr(name->value, '/') - name->value);
	if (parent[0] != '\0' && (pidx = bs_config_consumer_index(cfg, parent)) < 0) {
		ctx_error(ctx, name->line, "consumer %s: its parent %s is not declared "
		    "(a parent comes before its children)", name->value, parent);
		return;
	}
	c = g_new0(BsConsumerConf, 1);
	c->path = g_strdup(name->value);
	c->line = s->line;
	c->parent = pidx;
	c->leaf = TRUE;
	for (guint i = 0; i < s->pairs->len; i++) {
		const BsLexPair *lp = s->pairs->pdata[i];

		bs_conf_record_line(&c->key_lines, lp->key, lp->line);
	}
	if (pidx >= 0) {
		BsConsumerConf *pc = cc->consumers->pdata[pidx];

		pc->leaf = FALSE;
		c->depth = pc->depth + 1;
		c->effective = pc->effective;
	} else {
		c->depth = 1;
		c->effective = BS_CONSUMER_POLICY_HYBRID;
	}
	if (policy != NULL) {
		if (!parse_policy(policy->value, &c->policy))
			ctx_error(ctx, policy->line, "bad value '%s' for POLICY: use hybrid, "
			    "ownership or share", policy->value);
		else if (c->depth > 1)
			ctx_error(ctx, policy->line, "consumer %s: POLICY is set on first-level "
			    "consumers only (it holds for their whole subtree)", c->path);
		else
			c->effective = c->policy;
	}
	if (users != NULL) {
		c->users = bs_conf_split_words(users->value);
		if (c->users[0] == NULL)
			ctx_error(ctx, users->line, "consumer %s: USERS is empty", c->path);
	}
	consumer_warning_action(ctx, s, c);
	g_ptr_array_add(cc->consumers, c);
	g_hash_table_insert(cc->consumer_by_path, c->path,
	    GINT_TO_POINTER(cc->consumers->len));
}

/* ---- Plan --------------------------------------------------------------- */

enum { COL_CONSUMER, COL_OWNED, COL_RESERVED, COL_LIMIT, COL_RANK, COL_SHARE,
	COL_GRACE, COL_LEND, COL_BORROW, COL_SHARE_LIMIT, COL_POLICY, N_COLS };

static const char *const col_names[N_COLS] = {
	"CONSUMER", "OWNED", "RESERVED", "LIMIT", "RANK", "SHARE", "GRACE_PERIOD",
	"LEND_LIMIT", "BORROW_LIMIT", "SHARE_LIMIT", "POLICY",
};

/* One integer cell; `-` keeps the default. */
static void
named_int_cell(const BsConfCtx *ctx, const BsLexRow *r, const int *cols, int c,
    int *out)
{
	const BsLexCell *cell;
	g_autoptr(GString) why = g_string_new(NULL);

	if (cols[c] < 0)
		return;
	cell = r->cells->pdata[cols[c]];
	if (bs_lex_cell_is_default(cell))
		return;
	if (!bs_conf_parse_int(cell->text, 0, IMAX, out, why))
		ctx_error(ctx, r->line, "bad value '%s' for %s: %s", cell->text, col_names[c],
		    why->str);
}

static BsPlanRow *
plan_row(BsConfig *cfg, const BsConfCtx *ctx, const BsLexRow *r, const int *cols,
    GHashTable *seen)
{
	const BsLexCell *cell = r->cells->pdata[cols[COL_CONSUMER]];
	g_autoptr(GString) why = g_string_new(NULL);
	BsPlanRow *row;
	int ci = bs_config_consumer_index(cfg, cell->text);

	if (ci < 0) {
		ctx_error(ctx, r->line, "unknown consumer %s (declare it in a Consumer "
		    "section)", cell->text);
		return NULL;
	}
	if (g_hash_table_contains(seen, GINT_TO_POINTER(ci + 1))) {
		ctx_error(ctx, r->line, "consumer %s has two rows in this plan", cell->text);
		return NULL;
	}
	g_hash_table_add(seen, GINT_TO_POINTER(ci + 1));
	row = g_new0(BsPlanRow, 1);
	row->consumer = ci;
	row->line = r->line;
	row->limit = BS_CONF_UNLIMITED;
	row->rank = BS_CONF_UNLIMITED;
	row->share = -1;
	row->lend_limit = BS_CONF_UNLIMITED;
	row->borrow_limit = BS_CONF_UNLIMITED;
	row->share_limit = BS_CONF_UNLIMITED;
	named_int_cell(ctx, r, cols, COL_OWNED, &row->owned);
	named_int_cell(ctx, r, cols, COL_RESERVED, &row->reserved);
	named_int_cell(ctx, r, cols, COL_LIMIT, &row->limit);
	named_int_cell(ctx, r, cols, COL_RANK, &row->rank);
	named_int_cell(ctx, r, cols, COL_GRACE, &row->grace_period);
	named_int_cell(ctx, r, cols, COL_LEND, &row->lend_limit);
	named_int_cell(ctx, r, cols, COL_BORROW, &row->borrow_limit);
	named_int_cell(ctx, r, cols, COL_SHARE_LIMIT, &row->share_limit);
	if (cols[COL_SHARE] >= 0 &&
	    !bs_lex_cell_is_default((cell = r->cells->pdata[cols[COL_SHARE]])) &&
	    !bs_conf_parse_double(cell->text, 0, IMAX, &row->share, why))
		ctx_error(ctx, r->line, "bad value '%s' for SHARE: %s", cell->text, why->str);
	/* POLICY in a plan: the first-level consumer's policy while this
	 * plan is in force (a time window switching a branch between
	 * ownership and hybrid); the Consumer section's otherwise. */
	if (cols[COL_POLICY] >= 0 &&
	    !bs_lex_cell_is_default((cell = r->cells->pdata[cols[COL_POLICY]]))) {
		const BsConsumerConf *c = cfg->consumers->consumers->pdata[ci];

		if (!parse_policy(cell->text, &row->policy))
			ctx_error(ctx, r->line, "bad value '%s' for POLICY: use hybrid, "
			    "ownership or share", cell->text);
		else if (c->depth != 1)
			ctx_error(ctx, r->line, "consumer %s: POLICY is set on first-level "
			    "consumers only (it holds for their whole subtree)", c->path);
	}
	return row;
}

/* Columns a policy does not read: said once per row, as a warning. */
static void
check_policy_columns(const BsConfig *cfg, const BsConfCtx *ctx, const BsPlanConf *pl,
    const BsPlanRow *row)
{
	const BsConsumerConf *c = cfg->consumers->consumers->pdata[row->consumer];
	BsConsumerPolicy effective = bs_config_plan_policy(cfg, pl, row->consumer);

	if (effective != BS_CONSUMER_POLICY_OWNERSHIP &&
	    (row->lend_limit != BS_CONF_UNLIMITED || row->borrow_limit != BS_CONF_UNLIMITED))
		ctx_warning(ctx, row->line, "consumer %s: LEND_LIMIT and BORROW_LIMIT apply "
		    "to the ownership policy only, ignoring", c->path);
	if (effective != BS_CONSUMER_POLICY_SHARE &&
	    (row->share >= 0 || row->share_limit != BS_CONF_UNLIMITED))
		ctx_warning(ctx, row->line, "consumer %s: SHARE and SHARE_LIMIT apply to the "
		    "share policy only, ignoring", c->path);
}

/* decisions.md's balance checks, within one plan. */
static void
check_balance(const BsConfig *cfg, const BsConfCtx *ctx, const BsPlanConf *pl)
{
	const BsConsumersConf *cc = cfg->consumers;
	const BsResourceGroupConf *g = cc->groups->pdata[pl->group];
	g_autofree const BsPlanRow **by_consumer = g_new0(const BsPlanRow *, cc->consumers->len);
	gint64 root_owned = 0;

	for (guint i = 0; i < pl->rows->len; i++) {
		const BsPlanRow *r = pl->rows->pdata[i];

		by_consumer[r->consumer] = r;
	}
	for (guint i = 0; i < pl->rows->len; i++) {
		const BsPlanRow *r = pl->rows->pdata[i];
		const BsConsumerConf *c = cc->consumers->pdata[r->consumer];

		check_policy_columns(cfg, ctx, pl, r);
		if (r->reserved > r->owned)
			ctx_error(ctx, r->line, "consumer %s reserves %d slots but owns only %d",
			    c->path, r->reserved, r->owned);
		if (r->limit != BS_CONF_UNLIMITED && r->limit < r->reserved)
			ctx_error(ctx, r->line, "consumer %s: LIMIT %d is below its RESERVED %d",
			    c->path, r->limit, r->reserved);
		if (c->parent < 0) {
			root_owned += r->owned;
			continue;
		}
		const BsPlanRow *pr = by_consumer[c->parent];
		int parent_owned = pr != NULL ? pr->owned : 0;

		if (r->owned > parent_owned)
			ctx_error(ctx, r->line, "consumer %s owns %d slots, more than its parent "
			    "%s (%d)", c->path, r->owned,
			    ((BsConsumerConf *)cc->consumers->pdata[c->parent])->path, parent_owned);
	}
	if (g->plan_slots != BS_CONF_UNLIMITED && root_owned != g->plan_slots)
		ctx_warning(ctx, pl->line, "plan for resource group %s: the first-level "
		    "consumers own %" G_GINT64_FORMAT " slots, PLAN_SLOTS is %d", g->name,
		    root_owned, g->plan_slots);
}

/* TIME_WINDOW = 8:00-17:00 [...], LSF's time-window syntax; the
 * parentheses lsb.resources writes around windows are allowed too. */
static gboolean
plan_windows(const BsConfCtx *ctx, const PlanKey *tw, GArray **out)
{
	g_autofree char *v = g_strstrip(g_strdup(tw->value));
	g_autoptr(GString) why = g_string_new(NULL);
	gsize n = strlen(v);

	if (n >= 2 && v[0] == '(' && v[n - 1] == ')') {
		v[n - 1] = '\0';
		memmove(v, v + 1, n - 1);
	}
	if (!bs_conf_windows_parse(v, out, why)) {
		ctx_error(ctx, tw->line, "bad TIME_WINDOW \"%s\": %s", tw->value, why->str);
		return FALSE;
	}
	return TRUE;
}

static void
load_plan(BsConfig *cfg, const BsConfCtx *ctx, const BsLexSection *s, GPtrArray *keys)
{
	BsConsumersConf *cc = cfg->consumers;
	g_autoptr(GHashTable) seen = g_hash_table_new(NULL, NULL);
	const PlanKey *rg = NULL, *tw = NULL;
	g_autoptr(GArray) windows = NULL;
	int cols[N_COLS];
	BsPlanConf *pl;

	for (guint i = 0; i < keys->len; i++) {
		const PlanKey *k = keys->pdata[i];

		if (k->plan_line != s->line)
			continue;
		if (g_ascii_strcasecmp(k->key, "RESOURCE_GROUP") == 0) {
			if (rg != NULL)
				ctx_error(ctx, k->line, "RESOURCE_GROUP given twice (first at "
				    "line %d)", rg->line);
			else
				rg = k;
		} else if (g_ascii_strcasecmp(k->key, "TIME_WINDOW") == 0) {
			if (tw != NULL)
				ctx_error(ctx, k->line, "TIME_WINDOW given twice (first at "
				    "line %d)", tw->line);
			else
				tw = k;
		} else {
			ctx_warning(ctx, k->line, "unknown parameter %s in section Plan, ignoring",
			    k->key);
		}
	}
	if (rg == NULL) {
		ctx_error(ctx, s->line, "Plan section without RESOURCE_GROUP");
		return;
	}
	if (bs_config_resource_group(cfg, rg->value) == NULL) {
		ctx_error(ctx, rg->line, "unknown resource group %s (define it in a "
		    "ResourceGroup section before its plan)", rg->value);
		return;
	}
	if (tw != NULL && !plan_windows(ctx, tw, &windows))
		return;
	pl = g_new0(BsPlanConf, 1);
	pl->line = s->line;
	pl->rows = g_ptr_array_new_with_free_func(g_free);
	pl->windows = g_steal_pointer(&windows);
	pl->window_line = tw != NULL ? tw->line : 0;
	for (guint i = 0; i < cc->groups->len; i++)
		if (strcmp(((BsResourceGroupConf *)cc->groups->pdata[i])->name, rg->value) == 0)
			pl->group = i;
	for (guint i = 0; i < cc->plans->len; i++) {
		const BsPlanConf *other = cc->plans->pdata[i];

		if (other->group != pl->group)
			continue;
		if (pl->windows == NULL && other->windows == NULL) {
			ctx_error(ctx, rg->line, "resource group %s has a plan without "
			    "TIME_WINDOW already (line %d)", rg->value, other->line);
			plan_free(pl);
			return;
		}
		if (pl->windows != NULL && other->windows != NULL &&
		    bs_conf_windows_overlap(pl->windows, other->windows)) {
			ctx_error(ctx, tw->line, "TIME_WINDOW of resource group %s "
			    "overlaps the plan at line %d", rg->value, other->line);
			plan_free(pl);
			return;
		}
	}
	if (!s->table || s->columns->len == 0) {
		g_ptr_array_add(cc->plans, pl);
		return;
	}
	for (int c = 0; c < N_COLS; c++)
		cols[c] = bs_lex_column(s, col_names[c]);
	for (guint i = 0; i < s->columns->len; i++) {
		gboolean known = FALSE;

		for (int c = 0; c < N_COLS; c++)
			known |= g_ascii_strcasecmp(s->columns->pdata[i], col_names[c]) == 0;
		if (!known)
			ctx_warning(ctx, s->header_line, "unknown column %s in section Plan, "
			    "ignoring", (char *)s->columns->pdata[i]);
	}
	if (cols[COL_CONSUMER] < 0) {
		ctx_error(ctx, s->header_line, "Plan section without a CONSUMER column");
		plan_free(pl);
		return;
	}
	for (guint i = 0; i < s->rows->len; i++) {
		BsPlanRow *row = plan_row(cfg, ctx, s->rows->pdata[i], cols, seen);

		if (row != NULL)
			g_ptr_array_add(pl->rows, row);
	}
	g_ptr_array_add(cc->plans, pl);
	check_balance(cfg, ctx, pl);
}

/* ---- the file ----------------------------------------------------------- */

void
bs_conf_consumers_load_text(BsConfig *cfg, const char *name, const char *text, gsize len,
    gint64 now, BsDiags *diags)
{
	BsConfCtx ctx = { diags, name, now };
	g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(plan_key_free);
	g_autofree char *clean = take_plan_keys(text, len, keys);
	g_autoptr(BsLexFile) f = bs_lex_text(name, clean, strlen(clean), BS_LEX_SECTIONS, now,
	    diags);

	bs_conf_consumers_free(cfg->consumers);
	cfg->consumers = bs_conf_consumers_new();
	for (guint i = 0; i < f->sections->len; i++) {
		const BsLexSection *s = f->sections->pdata[i];

		if (g_ascii_strcasecmp(s->name, "ResourceGroup") == 0 && !s->table)
			load_group(cfg, &ctx, s);
		else if (g_ascii_strcasecmp(s->name, "Consumer") == 0 && !s->table)
			load_consumer(cfg, &ctx, s);
		else if (g_ascii_strcasecmp(s->name, "Plan") == 0)
			load_plan(cfg, &ctx, s, keys);
		else if (g_ascii_strcasecmp(s->name, "ResourceGroup") == 0 ||
		    g_ascii_strcasecmp(s->name, "Consumer") == 0)
			ctx_error(&ctx, s->line, "expected KEY = value in section %s", s->name);
		else
			bs_conf_unknown_section(&ctx, s);
	}
}

/* ---- lookups ------------------------------------------------------------ */

int
bs_config_consumer_index(const BsConfig *cfg, const char *path)
{
	gpointer v;

	if (cfg->consumers == NULL || path == NULL)
		return -1;
	v = g_hash_table_lookup(cfg->consumers->consumer_by_path, path);
	return v != NULL ? GPOINTER_TO_INT(v) - 1 : -1;
}

const BsConsumerConf *
bs_config_consumer(const BsConfig *cfg, const char *path)
{
	int i = bs_config_consumer_index(cfg, path);

	return i >= 0 ? cfg->consumers->consumers->pdata[i] : NULL;
}

const BsResourceGroupConf *
bs_config_resource_group(const BsConfig *cfg, const char *name)
{
	for (guint i = 0; cfg->consumers != NULL && i < cfg->consumers->groups->len; i++) {
		const BsResourceGroupConf *g = cfg->consumers->groups->pdata[i];

		if (strcmp(g->name, name) == 0)
			return g;
	}
	return NULL;
}

char **
bs_config_resource_group_hosts(const BsConfig *cfg, const BsResourceGroupConf *rg)
{
	g_autoptr(GHashTable) in = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GHashTable) out = g_hash_table_new(g_str_hash, g_str_equal);

	if (rg->hosts == NULL)
		bs_conf_expand_word(cfg, "all", FALSE, in, out, 0);
	for (guint i = 0; rg->hosts != NULL && rg->hosts[i] != NULL; i++)
		bs_conf_expand_word(cfg, rg->hosts[i], FALSE, in, out, 0);
	return bs_conf_hosts_in_order(cfg, in, out);
}

gboolean
bs_config_consumer_allows(const BsConfig *cfg, const BsConsumerConf *c, const char *user)
{
	if (c->users == NULL)
		return TRUE;
	for (guint i = 0; c->users[i] != NULL; i++) {
		g_auto(GStrv) members = NULL;

		if (strcmp(c->users[i], "all") == 0 || strcmp(c->users[i], user) == 0)
			return TRUE;
		members = bs_config_user_group_expand(cfg, c->users[i]);
		if (members != NULL && g_strv_contains((const char *const *)members, user))
			return TRUE;
	}
	return FALSE;
}

int
bs_config_plan_rank(const BsConfig *cfg, const BsPlanRow *row)
{
	if (row != NULL && row->rank != BS_CONF_UNLIMITED)
		return row->rank;
	return cfg->params->consumer_rank_default != BS_CONF_UNLIMITED ?
	    cfg->params->consumer_rank_default : 0;
}

const BsPlanConf *
bs_config_plan_in_force(const BsConfig *cfg, int group, GDateTime *t)
{
	const BsPlanConf *dflt = NULL;

	if (cfg->consumers == NULL)
		return NULL;
	for (guint i = 0; i < cfg->consumers->plans->len; i++) {
		const BsPlanConf *pl = cfg->consumers->plans->pdata[i];

		if (pl->group != group)
			continue;
		if (pl->windows == NULL)
			dflt = pl;
		else if (bs_conf_windows_open(pl->windows, t))
			return pl;
	}
	return dflt;
}

BsConsumerPolicy
bs_config_plan_policy(const BsConfig *cfg, const BsPlanConf *pl, int consumer)
{
	const BsConsumersConf *cc = cfg->consumers;
	int top = consumer;

	while (((const BsConsumerConf *)cc->consumers->pdata[top])->parent >= 0)
		top = ((const BsConsumerConf *)cc->consumers->pdata[top])->parent;
	for (guint i = 0; pl != NULL && i < pl->rows->len; i++) {
		const BsPlanRow *r = pl->rows->pdata[i];

		if (r->consumer == top && r->policy != BS_CONSUMER_POLICY_UNSET)
			return r->policy;
	}
	return ((const BsConsumerConf *)cc->consumers->pdata[consumer])->effective;
}
