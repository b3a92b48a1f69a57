/*
 * What a caller may see of other users' jobs: LSF's SECURE_JOB_INFO_LEVEL
 * (lsb.params), read as LSF's table does.  "Summary" is what bjobs shows
 * without -l; "detail" adds what only the owner should read: the command,
 * the submission environment, the working directory, the input, output
 * and error paths, the pre-execution command and a spooled script, and
 * the job name when it was not given (it is then the command line).
 *
 *   level  own  same group      everyone else
 *     0    all  summary+detail  summary+detail      (LSF's default)
 *     1    all  summary+detail  summary
 *     2    all  summary+detail  nothing
 *     3    all  summary         nothing
 *     4    all  nothing         nothing
 *     5    all  summary         summary             (Basalt's default)
 *
 * Cluster administrators see everything, as LSF's primary administrator
 * does.  A caller whose identity is not established (an unauthenticated
 * TCP peer) owns nothing and shares no group.  "Same group" is a user
 * group of lsb.users that holds both users.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/svc/svc.h"

struct Sight {
	int level;
	gboolean all;             /* the caller sees every detail */
	const char *user;         /* the caller, or NULL when unknown */
	GHashTable *peers;        /* users sharing a group with the caller */
};

/* Everyone who shares a user group with user: built once per request. */
static GHashTable *
group_peers(Manager *m, const char *user)
{
	GHashTable *peers = g_hash_table_new_full(g_str_hash, g_str_equal,
	    g_free, NULL);
	const BsUsersConf *uc = m->cfg->users;

	for (guint i = 0; uc != NULL && uc->groups != NULL &&
	    i < uc->groups->len; i++) {
		const BsUserGroupConf *g = g_ptr_array_index(uc->groups, i);
		g_auto(GStrv) members = bs_config_user_group_expand(m->cfg, g->name);

		if (members == NULL ||
		    !g_strv_contains((const char *const *)members, user))
			continue;
		for (guint k = 0; members[k] != NULL; k++)
			g_hash_table_add(peers, g_strdup(members[k]));
	}
	return peers;
}

Sight *
svc_sight_new(Manager *m, const Caller *c)
{
	Sight *s = g_new0(Sight, 1);

	s->level = m->cfg->params->secure_job_info_level;
	s->all = s->level == 0 || (c->known && c->admin);
	s->user = c->known ? c->user : NULL;
	if (!s->all && s->user != NULL && s->level >= 1 && s->level <= 3)
		s->peers = group_peers(m, s->user);
	return s;
}

void
svc_sight_free(Sight *s)
{
	if (s == NULL)
		return;
	g_clear_pointer(&s->peers, g_hash_table_destroy);
	g_free(s);
}

gboolean
svc_sight_all(const Sight *s)
{
	return s->all;
}

SightLevel
svc_sight_of(const Sight *s, const Job *j)
{
	return svc_sight_of_user(s, j->user);
}

SightLevel
svc_sight_of_user(const Sight *s, const char *owner)
{
	gboolean peer;

	if (s->all)
		return SIGHT_DETAIL;
	/* An owner nobody can name (a record whose job is gone): summary at
	 * most, never detail. */
	if (owner == NULL)
		return s->level == 5 || s->level == 1 ? SIGHT_SUMMARY : SIGHT_NONE;
	if (s->user != NULL && strcmp(s->user, owner) == 0)
		return SIGHT_DETAIL;
	peer = s->peers != NULL && g_hash_table_contains(s->peers, owner);
	switch (s->level) {
	case 1:
		return peer ? SIGHT_DETAIL : SIGHT_SUMMARY;
	case 2:
		return peer ? SIGHT_DETAIL : SIGHT_NONE;
	case 3:
		return peer ? SIGHT_SUMMARY : SIGHT_NONE;
	case 4:
		return SIGHT_NONE;
	default:
		return SIGHT_SUMMARY;
	}
}

void
svc_sight_hide_name(const Job *j, Basalt__JobInfo *info)
{
	const Basalt__JobSpec *spec = job_spec(j);
	static char hidden[] = "-";

	/* Without -J the name is the command line: as private as it. */
	if (spec == NULL || spec->job_name == NULL || *spec->job_name == '\0')
		info->job_name = hidden;
}

void
svc_sight_hide_details(Basalt__JobSpec *spec)
{
	static char empty[] = "";

	spec->command = empty;
	spec->cwd = empty;
	spec->stdin_path = empty;
	spec->stdout_path = empty;
	spec->stderr_path = empty;
	spec->pre_exec = empty;
	spec->post_exec = empty;
	spec->script = empty;
	spec->env = NULL;
	spec->n_env = 0;
}

/*
 * mbatchd selects by the real name; a caller who is shown "-" for it must
 * not learn more through -J: otherwise -J "*secret*" would tell what
 * others' commands say, one wildcard at a time.
 */
gboolean
svc_sight_name_matches(const Sight *s, const Basalt__JobQuery *q,
    const Job *j)
{
	const Basalt__JobSpec *spec;

	if (q->job_name == NULL || *q->job_name == '\0' ||
	    svc_sight_of(s, j) == SIGHT_DETAIL)
		return TRUE;
	spec = job_spec(j);
	if (spec != NULL && spec->job_name != NULL && *spec->job_name != '\0')
		return TRUE;
	return svc_name_matches(q->job_name, "-");
}
