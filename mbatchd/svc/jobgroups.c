/*
 * Job groups over the BatchService: bjgroup's listing (JobGroups) and
 * bgadd, bgmod, bgdel (JobGroupControl).  Who may do what follows LSF:
 * anyone may create a group (and put jobs into any group, submit.c);
 * only the group's owner, the owner of one of its ancestors, or an
 * administrator may change its limit; only its owner or an administrator
 * may delete it, and never while a job of its subtree is unfinished.
 * Every change is an EvJobGroup committed through the manager.
 */
#include "config.h"

#include <string.h>

#include "job/jobgroup.h"
#include "mbatchd/svc/svc.h"

#define E(code) BASALT__ERROR_CODE__ERROR_CODE_##code
#define ACT(a) BASALT__JOB_GROUP_ACTION__JOB_GROUP_ACTION_##a

/* Groups `user` owns.  A scan, but only when a group is to be created,
 * which journals an event: the scan costs less than that event's sync
 * even at BS_JOBGROUP_COUNT_MAX groups. */
static guint
groups_owned(Manager *m, const char *user)
{
	GHashTableIter it;
	gpointer v;
	guint n = 0;

	g_hash_table_iter_init(&it, m->st->jobgroups);
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (g_strcmp0(((const JobGroup *)v)->owner, user) == 0)
			n++;
	return n;
}

/* Groups a new path would add (itself and missing ancestors) beyond
 * BS_JOBGROUP_COUNT_MAX, or beyond MAX_JOB_GROUPS_PER_USER of the
 * caller's own (administrators are not bound by the latter): refused,
 * with what to do about it.  The total is shared by every user, so
 * without the per-user bound one user could take it all. */
Basalt__Error *
svc_check_job_group_room(Manager *m, const Caller *c, const char *path)
{
	g_autofree char *p = g_strdup(path);
	guint missing = 0;
	int per_user = m->cfg->params->max_job_groups_per_user;

	while (p != NULL && state_jobgroup(m->st, p) == NULL) {
		char *up = bs_jobgroup_parent(p);

		missing++;
		g_free(p);
		p = up;
	}
	if (missing == 0)
		return NULL;
	if (g_hash_table_size(m->st->jobgroups) + missing > BS_JOBGROUP_COUNT_MAX)
		return svc_error(E(LIMIT), "Cannot create job group <%s>: "
		    "mbatchd already holds %d job groups; delete empty ones "
		    "with bgdel", path, BS_JOBGROUP_COUNT_MAX);
	if (!c->admin && per_user > 0 &&
	    groups_owned(m, c->user) + missing > (guint)per_user)
		return svc_error(E(LIMIT), "Cannot create job group <%s>: "
		    "user %s would own more than %d job groups "
		    "(MAX_JOB_GROUPS_PER_USER); delete empty ones with bgdel",
		    path, c->user, per_user);
	return NULL;
}

Basalt__Error *
svc_check_job_group(const char *path)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *norm = NULL;

	if (path == NULL || *path == '\0')
		return NULL;
	if (!bs_jobgroup_normalize(path, &norm, &err))
		return svc_error(E(BAD_REQUEST), "%s", err->message);
	if (strcmp(norm, path) != 0)
		return svc_error(E(BAD_REQUEST), "Bad job group name <%s>: "
		    "write it as %s", path, norm);
	return NULL;
}

char *
svc_default_job_group(Manager *m, const char *user, const char *project)
{
	const char *pat = m->cfg->params->default_jobgroup;
	g_autofree char *path = NULL;
	char *norm = NULL;

	if (pat == NULL || *pat == '\0')
		return NULL;
	path = bs_jobgroup_expand(pat, user, project);
	if (!bs_jobgroup_normalize(path, &norm, NULL))
		return NULL;
	return norm;
}

/* Adds a job to the figures of one group's listing. */
static void
count_job(Basalt__JobGroupInfo *gi, const Job *j)
{
	/* A pending job counts the slots it asks for, a started one those
	 * it holds. */
	guint32 slots = (guint32)MAX(job_is_pending(j) ?
	    (int)job_spec(j)->min_slots : job_slots(j), 1);

	gi->njobs++;
	gi->nslots += slots;
	switch (j->state) {
	case JS_PEND:
	case JS_PSUSP:
		gi->pend++;
		gi->pend_slots += slots;
		break;
	case JS_RUN:
	case JS_UNKWN:
		gi->run++;
		gi->run_slots += slots;
		gi->started++;
		break;
	case JS_SSUSP:
		gi->ssusp++;
		gi->ssusp_slots += slots;
		gi->started++;
		break;
	case JS_USUSP:
		gi->ususp++;
		gi->ususp_slots += slots;
		gi->started++;
		break;
	default:
		gi->finish++;
		/* Finished jobs count in NJOBS but hold no slots. */
		gi->nslots -= slots;
		break;
	}
}

/*
 * Each job counts in its group and every ancestor listed in `by_path`:
 * one pass over the jobs whatever the number of groups.
 */
static void
count_jobs(Manager *m, GHashTable *by_path)
{
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const Job *j = v;
		const char *path = job_spec(j)->job_group;
		g_autofree char *p = NULL;

		if (path == NULL || *path == '\0')
			continue;
		p = g_strdup(path);
		for (;;) {
			Basalt__JobGroupInfo *gi = g_hash_table_lookup(by_path, p);
			char *slash;

			if (gi != NULL)
				count_job(gi, j);
			if ((slash = strrchr(p, '/')) == NULL || slash == p)
				break;
			*slash = '\0';
		}
	}
}

void
svc_job_groups(Basalt__BatchService_Service *svc,
    const Basalt__JobGroupQuery *req, Basalt__JobGroupList_Closure closure,
    void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__JobGroupList reply = BASALT__JOB_GROUP_LIST__INIT;
	g_autoptr(GPtrArray) groups = state_jobgroups_sorted(m->st);
	g_autoptr(GHashTable) by_path = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GError) err = NULL;
	g_autofree char *want = NULL;
	g_autofree Basalt__JobGroupInfo *infos = NULL;
	g_autofree Basalt__JobGroupInfo **list = NULL;
	guint n = 0;

	if (req->path != NULL && *req->path != '\0' &&
	    !bs_jobgroup_normalize(req->path, &want, &err)) {
		reply.error = svc_error(E(BAD_REQUEST), "%s", err->message);
	} else if (want != NULL && state_jobgroup(m->st, want) == NULL) {
		reply.error = svc_error(E(BAD_REQUEST),
		    "No job group found: %s", want);
	} else {
		infos = g_new0(Basalt__JobGroupInfo, MAX(groups->len, 1));
		list = g_new0(Basalt__JobGroupInfo *, MAX(groups->len, 1));
		for (guint i = 0; i < groups->len; i++) {
			const JobGroup *g = g_ptr_array_index(groups, i);
			Basalt__JobGroupInfo *gi = &infos[n];

			if (want != NULL && (req->top_only ?
			    strcmp(g->path, want) != 0 :
			    !bs_jobgroup_within(g->path, want)))
				continue;
			basalt__job_group_info__init(gi);
			gi->path = g->path;
			gi->owner = g->owner;
			gi->limit = g->limit;
			gi->implicit = g->implicit;
			gi->create_time = g->create_time;
			g_hash_table_insert(by_path, g->path, gi);
			list[n++] = gi;
		}
		count_jobs(m, by_path);
		reply.groups = list;
		reply.n_groups = n;
	}
	closure(&reply, call);
	svc_error_free(reply.error);
}

/* Unfinished jobs in the group's subtree. */
static guint
busy_jobs(Manager *m, const char *path)
{
	GHashTableIter it;
	gpointer v;
	guint n = 0;

	g_hash_table_iter_init(&it, m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (!job_is_finished(v) &&
		    bs_jobgroup_within(job_spec(v)->job_group, path))
			n++;
	return n;
}

static gboolean
owns(const Caller *c, const JobGroup *g)
{
	return c->admin || strcmp(c->user, g->owner) == 0;
}

/* bgmod: the group's owner or an ancestor's. */
static gboolean
may_modify(Manager *m, const Caller *c, const char *path)
{
	g_autofree char *p = g_strdup(path);

	while (p != NULL) {
		const JobGroup *g = state_jobgroup(m->st, p);
		char *up;

		if (g != NULL && owns(c, g))
			return TRUE;
		up = bs_jobgroup_parent(p);
		g_free(p);
		p = up;
	}
	return FALSE;
}

/*
 * LSF's nesting rule for -L: no more than any ancestor's limit, no less
 * than any subgroup's.  NULL when the limit fits.
 */
static Basalt__Error *
limit_fits(Manager *m, const char *path, int limit)
{
	g_autoptr(GPtrArray) groups = NULL;
	g_autofree char *p = bs_jobgroup_parent(path);

	if (limit < 0)
		return NULL;
	while (p != NULL) {
		const JobGroup *g = state_jobgroup(m->st, p);
		char *up;

		if (g != NULL && g->limit >= 0 && limit > g->limit)
			return svc_error(E(BAD_REQUEST), "The job limit %d of "
			    "job group <%s> cannot exceed the limit %d of its "
			    "parent group <%s>", limit, path, g->limit, g->path);
		up = bs_jobgroup_parent(p);
		g_free(p);
		p = up;
	}
	groups = state_jobgroups_sorted(m->st);
	for (guint i = 0; i < groups->len; i++) {
		const JobGroup *g = g_ptr_array_index(groups, i);

		if (strcmp(g->path, path) != 0 &&
		    bs_jobgroup_within(g->path, path) && g->limit > limit)
			return svc_error(E(BAD_REQUEST), "The job limit %d of "
			    "job group <%s> cannot be less than the limit %d of "
			    "its subgroup <%s>", limit, path, g->limit, g->path);
	}
	return NULL;
}

static Basalt__Error *
commit(Manager *m, const Caller *c, Basalt__JobGroupAction action,
    const char *path, int limit, gboolean set_limit)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobGroup e = BASALT__EV_JOB_GROUP__INIT;
	g_autoptr(GError) err = NULL;
	Basalt__Error *out;

	e.action = action;
	e.path = (char *)path;
	e.user = (char *)c->user;
	e.limit = limit;
	e.set_limit = set_limit;
	ev.body_case = BASALT__EVENT__BODY_JOB_GROUP;
	ev.job_group = &e;
	if (manager_commit(m, &ev, &err))
		return NULL;
	if ((out = svc_storage_error(m)) == NULL)
		out = svc_error(E(INTERNAL), "%s", err->message);
	return out;
}

static Basalt__Error *
do_add(Manager *m, const Caller *c, const Basalt__JobGroupRequest *req,
    const char *path, GPtrArray *msgs)
{
	Basalt__Error *e;

	if (state_jobgroup(m->st, path) != NULL)
		return svc_error(E(BAD_REQUEST),
		    "Job group <%s> already exists", path);
	if ((e = svc_check_job_group_room(m, c, path)) != NULL)
		return e;
	if (req->set_limit && (e = limit_fits(m, path, req->limit)) != NULL)
		return e;
	if ((e = commit(m, c, ACT(ADD), path, req->limit, req->set_limit)) != NULL)
		return e;
	g_ptr_array_add(msgs, g_strdup_printf("Job group <%s> was added.",
	    path));
	return NULL;
}

static Basalt__Error *
do_modify(Manager *m, const Caller *c, const Basalt__JobGroupRequest *req,
    const char *path, GPtrArray *msgs)
{
	Basalt__Error *e;

	if (state_jobgroup(m->st, path) == NULL)
		return svc_error(E(BAD_REQUEST), "No job group found: %s", path);
	if (!may_modify(m, c, path))
		return svc_error(E(PERMISSION), "User permission denied: "
		    "job group <%s> belongs to %s", path,
		    state_jobgroup(m->st, path)->owner);
	if (!req->set_limit)
		return svc_error(E(BAD_REQUEST), "Nothing to modify: give -L "
		    "limit or -Ln");
	if ((e = limit_fits(m, path, req->limit)) != NULL)
		return e;
	if ((e = commit(m, c, ACT(MODIFY), path, req->limit, TRUE)) != NULL)
		return e;
	g_ptr_array_add(msgs, g_strdup_printf("Job group <%s> is modified.",
	    path));
	return NULL;
}

/* One group and its subtree, when the caller owns it and it is idle. */
static Basalt__Error *
delete_one(Manager *m, const Caller *c, const char *path, GPtrArray *msgs)
{
	const JobGroup *g = state_jobgroup(m->st, path);
	g_autofree char *copy = g_strdup(path);
	Basalt__Error *e;
	guint busy;

	if (g == NULL)
		return svc_error(E(BAD_REQUEST), "No job group found: %s", path);
	if (!owns(c, g))
		return svc_error(E(PERMISSION), "User permission denied: "
		    "job group <%s> belongs to %s", path, g->owner);
	if ((busy = busy_jobs(m, path)) > 0)
		return svc_error(E(JOB_STATE), "Job group <%s> cannot be "
		    "deleted: it holds %u unfinished job%s", path, busy,
		    busy == 1 ? "" : "s");
	if ((e = commit(m, c, ACT(DELETE), copy, -1, FALSE)) != NULL)
		return e;
	g_ptr_array_add(msgs, g_strdup_printf("Job group <%s> was deleted.",
	    copy));
	return NULL;
}

/*
 * bgdel -c (the empty groups of a subtree) and bgdel 0 (every empty group
 * of an owner): deepest first, each group only once its own subgroups
 * are gone, so a group that still has a busy subgroup stays.
 */
static Basalt__Error *
delete_empty(Manager *m, const Caller *c, const char *below,
    const char *owner, GPtrArray *msgs)
{
	g_autoptr(GPtrArray) groups = state_jobgroups_sorted(m->st);
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) busy = state_jobgroups_busy(m->st);

	/* One pass over the jobs and one over the groups: a user may hold
	 * many groups, and bgdel 0 must not cost their square. */
	for (guint i = groups->len; i-- > 0;) {
		const JobGroup *g = g_ptr_array_index(groups, i);

		if (below != NULL && !bs_jobgroup_within(g->path, below))
			continue;
		if (owner != NULL && strcmp(owner, "all") != 0 &&
		    strcmp(owner, g->owner) != 0)
			continue;
		if (!owns(c, g) || g_hash_table_contains(busy, g->path))
			continue;
		g_ptr_array_add(paths, g_strdup(g->path));
	}
	/* Deepest first: a group goes once the subgroups below it went. */
	for (guint i = 0; i < paths->len; i++) {
		const char *p = g_ptr_array_index(paths, i);
		const JobGroup *g = state_jobgroup(m->st, p);
		Basalt__Error *e;

		if (g == NULL || g->n_children > 0)
			continue;
		if ((e = commit(m, c, ACT(DELETE), p, -1, FALSE)) != NULL)
			return e;
		g_ptr_array_add(msgs, g_strdup_printf("Job group <%s> was "
		    "deleted.", p));
	}
	if (msgs->len == 0)
		g_ptr_array_add(msgs, g_strdup("No empty job group to delete."));
	return NULL;
}

static Basalt__Error *
do_delete(Manager *m, const Caller *c, const Basalt__JobGroupRequest *req,
    const char *path, GPtrArray *msgs)
{
	const char *owner = req->owner != NULL && *req->owner ? req->owner : NULL;

	if (owner != NULL && !c->admin)
		return svc_error(E(PERMISSION), "User permission denied: "
		    "only administrators may use -u");
	if (req->clean_all)
		return delete_empty(m, c, NULL, owner != NULL ? owner : c->user,
		    msgs);
	if (req->empty_below) {
		if (state_jobgroup(m->st, path) == NULL)
			return svc_error(E(BAD_REQUEST), "No job group found: %s",
			    path);
		return delete_empty(m, c, path, NULL, msgs);
	}
	return delete_one(m, c, path, msgs);
}

void
svc_job_group_control(Basalt__BatchService_Service *svc,
    const Basalt__JobGroupRequest *req, Basalt__JobGroupReply_Closure closure,
    void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__JobGroupReply reply = BASALT__JOB_GROUP_REPLY__INIT;
	g_autoptr(GPtrArray) msgs = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) err = NULL;
	g_autofree char *path = NULL;
	Caller c;

	svc_caller(m, call, &c);
	if ((reply.error = svc_storage_error(m)) != NULL)
		;
	else if (!c.known)
		reply.error = svc_error(E(PERMISSION),
		    "User permission denied: unauthenticated client");
	else if (!(req->action == ACT(DELETE) && req->clean_all) &&
	    !bs_jobgroup_normalize(req->path, &path, &err))
		reply.error = svc_error(E(BAD_REQUEST), "%s", err->message);
	else if (req->set_limit && req->limit < -1)
		reply.error = svc_error(E(BAD_REQUEST), "Bad job group limit %d: "
		    "the limit is from 0 to 2147483647", req->limit);
	else if (req->action == ACT(ADD))
		reply.error = do_add(m, &c, req, path, msgs);
	else if (req->action == ACT(MODIFY))
		reply.error = do_modify(m, &c, req, path, msgs);
	else if (req->action == ACT(DELETE))
		reply.error = do_delete(m, &c, req, path, msgs);
	else
		reply.error = svc_error(E(BAD_REQUEST), "Unknown job group action");
	reply.messages = (char **)msgs->pdata;
	reply.n_messages = msgs->len;
	closure(&reply, call);
	svc_error_free(reply.error);
}
