/*
 * What the BatchService handlers share: who is calling, how to fail, and
 * which jobs a selection names.  The handlers validate, turn requests into
 * events, commit them through the manager and reply; none of them changes
 * the state directly.
 */
#ifndef BS_MBD_SVC_H
#define BS_MBD_SVC_H

#include <stddef.h>

#include "mbatchd/mbd.h"

typedef struct {
	Manager *m;
	uid_t uid;
	gid_t gid;
	gboolean known;           /* the peer's identity is established */
	gboolean admin;
	char user[256];
} Caller;

static inline Manager *
svc_manager(Basalt__BatchService_Service *svc)
{
	return (Manager *)((char *)svc - offsetof(Manager, batch_service));
}

/* Identity from SO_PEERCRED (or, later, MUNGE); never from the request. */
void svc_caller(Manager *m, void *call, Caller *c);

/* A heap Error for a reply; free with svc_error_free. */
Basalt__Error *svc_error(Basalt__ErrorCode code, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);
void svc_error_free(Basalt__Error *e);

/* The refusal for any change while the journal cannot be written. */
Basalt__Error *svc_storage_error(const Manager *m);

/* May the caller act on this job? */
gboolean svc_may_control(const Caller *c, const Job *j);

/*
 * The jobs a query selects, in bjobs order: pending (by queue priority,
 * then queue order), then started, then finished.  `default_user` applies
 * when the query names no users.  Array elements are matched by the
 * parallel array_indexes (0 = every element).
 */
GPtrArray *svc_select_jobs(Manager *m, const Basalt__JobQuery *q,
    const char *default_user);

/* select.c: a query's lists as hash sets, built once per request, so
 * matching a job costs a few lookups however long the lists are. */
typedef struct Selector Selector;
Selector *svc_selector_new(Manager *m, const Basalt__JobQuery *q,
    const char *default_user);
gboolean svc_selector_match(const Selector *s, const Job *j);
/* A -J pattern ('*' wildcards) against a job name; an array element's
 * "name[3]" also matches as "name". */
gboolean svc_name_matches(const char *pattern, const char *name);
void svc_selector_free(Selector *s);

void svc_fill_job_info(Manager *m, const Job *j, gboolean detail,
    Basalt__JobInfo *info);
/* What the query asks for: svc_fill_job_info's record, or with
 * JobQuery.fields set only the fields it names.  Free with
 * svc_free_job_info either way. */
void svc_fill_job(Manager *m, const Job *j, const Basalt__JobQuery *q,
    Basalt__JobInfo *info);
void svc_free_job_info(Basalt__JobInfo *info);

/* sight.c: what the caller may see of a job (SECURE_JOB_INFO_LEVEL). */
typedef enum {
	SIGHT_NONE,               /* not listed at all */
	SIGHT_SUMMARY,            /* listed; command, environment, paths hidden */
	SIGHT_DETAIL,
} SightLevel;
typedef struct Sight Sight;
Sight *svc_sight_new(Manager *m, const Caller *c);
SightLevel svc_sight_of(const Sight *s, const Job *j);
/* Whether the caller sees every job in detail (SECURE_JOB_INFO_LEVEL 0,
 * or an administrator): then no job need be looked at to know. */
gboolean svc_sight_all(const Sight *s);
/* The same by the owner's name (history records of jobs long gone). */
SightLevel svc_sight_of_user(const Sight *s, const char *owner);
void svc_sight_free(Sight *s);
/* A job name that is the command by default shows as "-". */
void svc_sight_hide_name(const Job *j, Basalt__JobInfo *info);
/* Blank what only SIGHT_DETAIL shows, in a copy of the job's spec. */
void svc_sight_hide_details(Basalt__JobSpec *spec);
/* Whether the query's -J pattern matches the job's name as the caller
 * sees it ("-" when the name is the command and the caller may not read
 * it); TRUE without a pattern. */
gboolean svc_sight_name_matches(const Sight *s, const Basalt__JobQuery *q,
    const Job *j);

/* bounds.c: every request's lists are checked against
 * MAX_REQUEST_LIST_SIZE before its handler runs. */
void svc_bound_requests(Manager *m);

/* Handlers, grouped by file. */
void svc_submit(Basalt__BatchService_Service *svc,
    const Basalt__SubmitRequest *req, Basalt__SubmitReply_Closure closure,
    void *call);
void svc_jobs(Basalt__BatchService_Service *svc, const Basalt__JobQuery *req,
    Basalt__JobList_Closure closure, void *call);
void svc_queues(Basalt__BatchService_Service *svc,
    const Basalt__QueueQuery *req, Basalt__QueueList_Closure closure,
    void *call);
void svc_hosts(Basalt__BatchService_Service *svc, const Basalt__HostQuery *req,
    Basalt__HostList_Closure closure, void *call);
/* showconf.c: ParamsQuery.lsf_conf, the lsf.conf mbatchd runs with. */
void svc_params_lsf_conf(Manager *m, Basalt__ParamsReply_Closure closure,
    void *call);
void svc_params(Basalt__BatchService_Service *svc,
    const Basalt__ParamsQuery *req, Basalt__ParamsReply_Closure closure,
    void *call);
void svc_users(Basalt__BatchService_Service *svc, const Basalt__UserQuery *req,
    Basalt__UserList_Closure closure, void *call);
void svc_cluster(Basalt__BatchService_Service *svc,
    const Basalt__ClusterInfoRequest *req, Basalt__ClusterInfo_Closure closure,
    void *call);
/* clusters.c: bclusters. */
void svc_clusters(Basalt__BatchService_Service *svc,
    const Basalt__ClustersRequest *req, Basalt__ClustersReply_Closure closure,
    void *call);
/* history.c: journal records for bhist and bacct, a page at a time. */
/* wait.c: bwait's one evaluation of a condition. */
void svc_post(Basalt__BatchService_Service *svc, const Basalt__PostRequest *req,
    Basalt__PostReply_Closure closure, void *call);
void svc_read(Basalt__BatchService_Service *svc, const Basalt__ReadRequest *req,
    Basalt__ReadReply_Closure closure, void *call);
void svc_wait(Basalt__BatchService_Service *svc, const Basalt__WaitRequest *req,
    Basalt__WaitReply_Closure closure, void *call);
void svc_history(Basalt__BatchService_Service *svc,
    const Basalt__HistoryRequest *req, Basalt__HistoryPage_Closure closure,
    void *call);
void svc_limits(Basalt__BatchService_Service *svc,
    const Basalt__LimitQuery *req, Basalt__LimitList_Closure closure,
    void *call);
/* consumers.c: bconsumers, and bsub -consumer at submission (NULL: the
 * job may count against that consumer, or names none). */
/* What bconsumers lists: the configuration whose plans it shows, the
 * figures of a pass (the last cycle's, or a preview's), for a preview the
 * last cycle's too (quota_now), and the time that picks the plan in force
 * (TIME_WINDOW).  strings: what the rows allocate, freed with the view. */
typedef struct {
	const BsConfig *cfg;
	const struct MbdConsumerFigures *figs;
	const struct MbdConsumerFigures *now_figs;
	gint64 time;
	GPtrArray *strings;
} ConsumerView;
/* Append the rows and groups (g_free each) the query selects; the query
 * is checked already. */
void svc_consumers_list(const ConsumerView *v, const Basalt__ConsumerQuery *req,
    GPtrArray *rows, GPtrArray *groups);
void svc_consumers(Basalt__BatchService_Service *svc,
    const Basalt__ConsumerQuery *req, Basalt__ConsumerList_Closure closure,
    void *call);
Basalt__Error *svc_check_consumer(Manager *m, const Caller *c,
    const Basalt__JobSpec *spec);
/* The job's lsb.consumers leaf (its -consumer, else its queue's
 * CONSUMER), or NULL: sched_input_job_consumer()'s rule. */
const char *svc_job_consumer(Manager *m, const Job *j);
void svc_control(Basalt__BatchService_Service *svc,
    const Basalt__JobControlRequest *req,
    Basalt__JobControlReply_Closure closure, void *call);
void svc_switch_queue(Basalt__BatchService_Service *svc,
    const Basalt__SwitchRequest *req, Basalt__JobControlReply_Closure closure,
    void *call);
void svc_move(Basalt__BatchService_Service *svc, const Basalt__MoveRequest *req,
    Basalt__MoveReply_Closure closure, void *call);
void svc_modify(Basalt__BatchService_Service *svc,
    const Basalt__ModifyRequest *req, Basalt__JobControlReply_Closure closure,
    void *call);
void svc_peek(Basalt__BatchService_Service *svc, const Basalt__PeekRequest *req,
    Basalt__PeekReply_Closure closure, void *call);
void svc_admin(Basalt__BatchService_Service *svc,
    const Basalt__AdminRequest *req, Basalt__AdminReply_Closure closure,
    void *call);

/* jobgroups.c: bjgroup, bgadd, bgmod, bgdel. */
void svc_job_groups(Basalt__BatchService_Service *svc,
    const Basalt__JobGroupQuery *req, Basalt__JobGroupList_Closure closure,
    void *call);
void svc_job_group_control(Basalt__BatchService_Service *svc,
    const Basalt__JobGroupRequest *req, Basalt__JobGroupReply_Closure closure,
    void *call);
/* A job's -g as sent: empty, or a path in its normal form; NULL when fine. */
Basalt__Error *svc_check_job_group(const char *path);
/* Whether the groups path would create still fit BS_JOBGROUP_COUNT_MAX
 * and the caller's MAX_JOB_GROUPS_PER_USER. */
Basalt__Error *svc_check_job_group_room(Manager *m, const Caller *c,
    const char *path);
/* DEFAULT_JOBGROUP for this submission (%u, %p substituted), to free;
 * NULL when none is configured or it does not make a valid path. */
char *svc_default_job_group(Manager *m, const char *user, const char *project);

/* A free job id (MAX_JOBID wraps), 0: none; submit.c, and the job relay's
 * records of other clusters' jobs (mc-jobs-provider.c). */
guint64 svc_next_job_id(Manager *m);

/* Checks shared by submit and modify; NULL when fine. */
Basalt__Error *svc_check_spec(Manager *m, const Caller *c,
    const Basalt__JobSpec *spec, const char *queue);
/* modify-started.c: bmod of a started job (LSB_MOD_ALL_JOBS).  spec is
 * the job's spec with the request applied (a shallow copy the function
 * may point at new strings); NULL when it was journaled and ordered. */
gboolean svc_mod_all_jobs(const Manager *m);
Basalt__Error *svc_modify_started(Manager *m, const Caller *c, Job *j,
    Basalt__JobSpec *spec, const Basalt__ModifyRequest *req);
/* Does the queue accept this user (queue USERS)? */
gboolean svc_queue_accepts_user(Manager *m, const BsQueueConf *q,
    const char *user);

#endif
