/*
 * lsb.users: UserGroup table (GROUP_NAME, GROUP_MEMBER, USER_SHARES) and
 * User table (USER_NAME, MAX_JOBS, JL/P, MAX_PEND_JOBS, MAX_PEND_SLOTS),
 * lsf-reference.md 3.3.
 *
 * Member names that are not groups are taken as OS users (LSF does not
 * check them against the password database at reconfig, and neither do
 * we).  A `group@` row must name a UserGroup; nested groups must not form
 * a cycle.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "conf/conf_queue_values.h"

#define U(f) offsetof(BsUserConf, f)
#define IMAX 2147483647.0

static const BsConfKey user_table[] = {
	{ "MAX_JOBS", BS_CT_INT, .offset = U(max_jobs), 0, IMAX, .def = "-1" },
	{ "JL/P", BS_CT_FLOAT, .offset = U(jl_p), 0, IMAX, .def = "-1" },
	{ "MAX_PEND_JOBS", BS_CT_INT, .offset = U(max_pend_jobs), 0, IMAX, .def = "-1" },
	{ "MAX_PEND_SLOTS", BS_CT_INT, .offset = U(max_pend_slots), 0, IMAX, .def = "-1" },
	{ NULL },
};
static const BsConfKey no_keys[] = { { NULL } };
static const char *const user_extra_columns[] = { "USER_NAME", "PRIORITY", NULL };
static const char *const group_columns[] = {
	"GROUP_NAME", "GROUP_MEMBER", "USER_SHARES", "GROUP_ADMIN", "PRIORITY", NULL,
};

static void
group_free(gpointer p)
{
	BsUserGroupConf *g = p;

	g_free(g->name);
	g_strfreev(g->members);
	if (g->shares != NULL)
		g_ptr_array_unref(g->shares);
	g_free(g);
}

static void
user_free(gpointer p)
{
	BsUserConf *u = p;

	g_free(u->name);
	g_free(u);
}

BsUsersConf *
bs_conf_users_new(void)
{
	BsUsersConf *u = g_new0(BsUsersConf, 1);

	u->groups = g_ptr_array_new_with_free_func(group_free);
	u->group_by_name = g_hash_table_new(g_str_hash, g_str_equal);
	u->users = g_ptr_array_new_with_free_func(user_free);
	return u;
}

void
bs_conf_users_free(BsUsersConf *u)
{
	if (u == NULL)
		return;
	g_hash_table_unref(u->group_by_name);
	g_ptr_array_unref(u->groups);
	g_ptr_array_unref(u->users);
	g_free(u);
}

static BsUserGroupConf *
group_from_row(const BsConfCtx *ctx, const BsLexSection *s, const BsLexRow *r)
{
	const BsLexCell *nc = r->cells->pdata[bs_lex_column(s, "GROUP_NAME")];
	const BsLexCell *mc = r->cells->pdata[bs_lex_column(s, "GROUP_MEMBER")];
	int sc = bs_lex_column(s, "USER_SHARES");
	g_autoptr(GString) why = g_string_new(NULL);
	BsUserGroupConf *g;

	if (!bs_conf_valid_name(nc->text, TRUE) || strcmp(nc->text, "all") == 0 ||
	    strcmp(nc->text, "default") == 0 || strcmp(nc->text, "others") == 0) {
		ctx_error(ctx, r->line, "bad user group name '%s'", nc->text);
		return NULL;
	}
	g = g_new0(BsUserGroupConf, 1);
	g->name = g_strdup(nc->text);
	g->line = r->line;
	g->members = bs_conf_split_words(bs_lex_cell_is_default(mc) ? "" : mc->text);
	if (sc >= 0 && !bs_lex_cell_is_default(r->cells->pdata[sc]) &&
	    !bs_conf_parse_shares(((BsLexCell *)r->cells->pdata[sc])->text, &g->shares, why))
		ctx_error(ctx, r->line, "bad value '%s' for USER_SHARES: %s",
		    ((BsLexCell *)r->cells->pdata[sc])->text, why->str);
	return g;
}

static void
load_group_section(BsUsersConf *uc, const BsConfCtx *ctx, const BsLexSection *s)
{
	if (bs_lex_column(s, "GROUP_NAME") < 0 || bs_lex_column(s, "GROUP_MEMBER") < 0) {
		if (s->columns->len > 0)
			ctx_error(ctx, s->header_line,
			    "UserGroup section needs GROUP_NAME and GROUP_MEMBER columns");
		return;
	}
	bs_conf_check_columns(ctx, s, no_keys, group_columns);
	for (guint i = 0; i < s->rows->len; i++) {
		const BsLexRow *r = s->rows->pdata[i];
		BsUserGroupConf *g = group_from_row(ctx, s, r);
		const BsUserGroupConf *first;

		if (g == NULL)
			continue;
		if ((first = g_hash_table_lookup(uc->group_by_name, g->name)) != NULL) {
			ctx_error(ctx, r->line, "duplicate user group %s (first at line %d)",
			    g->name, first->line);
			group_free(g);
			continue;
		}
		g_ptr_array_add(uc->groups, g);
		g_hash_table_insert(uc->group_by_name, g->name, g);
	}
}

static void
load_user_section(BsUsersConf *uc, const BsConfCtx *ctx, const BsLexSection *s)
{
	int nc = bs_lex_column(s, "USER_NAME");

	if (nc < 0) {
		if (s->columns->len > 0)
			ctx_error(ctx, s->header_line, "User section without a USER_NAME column");
		return;
	}
	bs_conf_check_columns(ctx, s, user_table, user_extra_columns);
	for (guint i = 0; i < s->rows->len; i++) {
		const BsLexRow *r = s->rows->pdata[i];
		const char *name = ((BsLexCell *)r->cells->pdata[nc])->text;
		gsize n = strlen(name);
		BsUserConf *u = g_new0(BsUserConf, 1);

		bs_conf_schema_init(user_table, u);
		u->per_member = n > 1 && name[n - 1] == '@';
		u->name = g_strndup(name, u->per_member ? n - 1 : n);
		u->line = r->line;
		for (guint c = 0; c < r->cells->len; c++) {
			const BsConfKey *k = bs_conf_schema_find(user_table, s->columns->pdata[c]);

			if (k != NULL)
				bs_conf_set_cell(ctx, k, u, r->cells->pdata[c], r->line);
		}
		g_ptr_array_add(uc->users, u);
	}
}

static const char *const *
group_members(gconstpointer data, const char *name, int *line)
{
	const BsUserGroupConf *g = g_hash_table_lookup(((const BsUsersConf *)data)->group_by_name,
	    name);

	if (g == NULL)
		return NULL;
	*line = g->line;
	return (const char *const *)g->members;
}

/* `group@` must be a group; a name must not have two rows. */
static void
check_users(BsUsersConf *uc, const BsConfCtx *ctx)
{
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (guint i = 0; i < uc->users->len; i++) {
		const BsUserConf *u = uc->users->pdata[i];
		g_autofree char *key = g_strconcat(u->name, u->per_member ? "@" : "", NULL);
		const BsUserConf *first = g_hash_table_lookup(seen, key);

		if (u->per_member && !g_hash_table_contains(uc->group_by_name, u->name))
			ctx_error(ctx, u->line, "%s@: no user group %s in lsb.users", u->name, u->name);
		if (first != NULL)
			ctx_error(ctx, u->line, "duplicate user %s (first at line %d)", key, first->line);
		else
			g_hash_table_insert(seen, g_steal_pointer(&key), (gpointer)u);
	}
}

void
bs_conf_users_load(BsUsersConf *uc, const BsConfCtx *ctx, const BsLexFile *f)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();

	for (guint i = 0; i < f->sections->len; i++) {
		const BsLexSection *s = f->sections->pdata[i];

		if (g_ascii_strcasecmp(s->name, "UserGroup") == 0 && s->table)
			load_group_section(uc, ctx, s);
		else if (g_ascii_strcasecmp(s->name, "User") == 0 && s->table)
			load_user_section(uc, ctx, s);
		else
			bs_conf_unknown_section(ctx, s);
	}
	for (guint i = 0; i < uc->groups->len; i++)
		g_ptr_array_add(names, ((BsUserGroupConf *)uc->groups->pdata[i])->name);
	bs_conf_find_cycles(ctx, "user group", names, group_members, uc);
	check_users(uc, ctx);
}
