/*
 * The fake mbatchd of check_api (see fake-mbd.h).  Replies are built on
 * the stack from literals: the server packs them before the handler
 * returns.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "fake-mbd.h"


Fake fake;

static void
keep(LsbMethod m, const ProtobufCMessage *req)
{
	gsize n = protobuf_c_message_get_packed_size(req);
	guint8 *buf = g_malloc(n ? n : 1);

	protobuf_c_message_pack(req, buf);
	g_mutex_lock(&fake.lock);
	if (fake.last[m] != NULL)
		g_bytes_unref(fake.last[m]);
	fake.last[m] = g_bytes_new_take(buf, n);
	g_mutex_unlock(&fake.lock);
}

/* The last request of a method, unpacked; free it with
 * protobuf_c_message_free_unpacked(). */
ProtobufCMessage *
last_request(LsbMethod m, const ProtobufCMessageDescriptor *d)
{
	ProtobufCMessage *msg = NULL;
	gsize n;
	const guint8 *p;

	g_mutex_lock(&fake.lock);
	if (fake.last[m] != NULL) {
		p = g_bytes_get_data(fake.last[m], &n);
		msg = protobuf_c_message_unpack(d, NULL, n, p);
	}
	g_mutex_unlock(&fake.lock);
	ck_assert_msg(msg != NULL, "no request for method %d", m);
	return msg;
}

static gboolean
refusing(void)
{
	return g_atomic_int_get(&fake.refuse) != 0;
}

static void
fake_submit(Basalt__BatchService_Service *s, const Basalt__SubmitRequest *req,
    Basalt__SubmitReply_Closure done, void *call)
{
	Basalt__SubmitReply r = BASALT__SUBMIT_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;

	keep(LSB_SUBMIT, &req->base);
	if (refusing()) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_NO_QUEUE;
		r.error = &e;
	} else {
		r.job_id = 42;
		r.queue = req->spec->n_queues > 0 ? req->spec->queues[0] :
		    (char *)"normal";
		r.default_queue = req->spec->n_queues == 0;
	}
	done(&r, call);
}

/* Two canned jobs: 12 running, 13 pending. */
void
canned_jobs(Basalt__JobList *l, Basalt__JobInfo *info, Basalt__JobInfo **ptrs)
{
	static char *exec[] = { "hostB" };

	for (int i = 0; i < 2; i++) {
		basalt__job_info__init(&info[i]);
		info[i].job_id = 12 + (guint)i;
		info[i].user = "alice";
		info[i].queue = "normal";
		info[i].from_host = "hostA";
		info[i].submit_time = T0;
		ptrs[i] = &info[i];
	}
	info[0].state = BASALT__JOB_STATE__JOB_STATE_RUN;
	info[0].job_name = "sleep";
	info[0].n_exec_hosts = 1;
	info[0].exec_hosts = exec;
	info[0].start_time = T0 + 5;
	info[1].state = BASALT__JOB_STATE__JOB_STATE_PEND;
	info[1].job_name = "job13";
	info[1].pending_reason = "New job is waiting for scheduling";
	basalt__job_list__init(l);
	l->n_jobs = 2;
	l->jobs = ptrs;
}

static void
fake_jobs(Basalt__BatchService_Service *s, const Basalt__JobQuery *req,
    Basalt__JobList_Closure done, void *call)
{
	Basalt__JobList l;
	Basalt__JobInfo info[2], *ptrs[2], *sel[2];
	size_t n = 0;

	keep(LSB_JOBS, &req->base);
	canned_jobs(&l, info, ptrs);
	for (size_t i = 0; i < 2; i++)
		for (size_t k = 0; k < req->n_job_ids; k++)
			if (req->job_ids[k] == info[i].job_id)
				sel[n++] = &info[i];
	/* Job 42, which bsub -K waits for, has run and exited with 3. */
	if (req->n_job_ids == 1 && req->job_ids[0] == 42) {
		info[0].job_id = 42;
		info[0].state = BASALT__JOB_STATE__JOB_STATE_EXIT;
		info[0].exit_status = 3;
		sel[n++] = &info[0];
	}
	if (req->n_job_ids > 0) {
		l.jobs = sel;
		l.n_jobs = n;
	}
	if (req->n_users == 1 && strcmp(req->users[0], "nobody") == 0)
		l.n_jobs = 0;
	done(&l, call);
}

static void
fake_queues(Basalt__BatchService_Service *s, const Basalt__QueueQuery *req,
    Basalt__QueueList_Closure done, void *call)
{
	Basalt__QueueList l = BASALT__QUEUE_LIST__INIT;
	Basalt__QueueInfo q = BASALT__QUEUE_INFO__INIT, *qs[1] = { &q };

	keep(LSB_QUEUES, &req->base);
	q.name = "normal";
	q.priority = 30;
	q.open = q.active = TRUE;
	q.qjob_limit = q.ujob_limit = q.hjob_limit = -1;
	q.pjob_limit = -1;
	q.njobs = 3;
	q.pend = 1;
	q.run = 2;
	l.n_queues = 1;
	l.queues = qs;
	done(&l, call);
}

static void
fake_hosts(Basalt__BatchService_Service *s, const Basalt__HostQuery *req,
    Basalt__HostList_Closure done, void *call)
{
	Basalt__HostList l = BASALT__HOST_LIST__INIT;
	Basalt__HostInfo h = BASALT__HOST_INFO__INIT, *hs[1] = { &h };

	keep(LSB_HOSTS, &req->base);
	h.name = "hostB";
	h.status = "ok";
	h.max_slots = 8;
	h.jl_u = -1;
	h.njobs = h.run = 2;
	l.n_hosts = 1;
	l.hosts = hs;
	done(&l, call);
}

static void
fake_params(Basalt__BatchService_Service *s, const Basalt__ParamsQuery *req,
    Basalt__ParamsReply_Closure done, void *call)
{
	Basalt__ParamsReply r = BASALT__PARAMS_REPLY__INIT;
	Basalt__KeyValue kv = BASALT__KEY_VALUE__INIT, *kvs[1] = { &kv };

	keep(LSB_PARAMS, &req->base);
	kv.key = "DEFAULT_QUEUE";
	kv.value = "normal";
	r.n_params = 1;
	r.params = kvs;
	done(&r, call);
}

static void
fake_users(Basalt__BatchService_Service *s, const Basalt__UserQuery *req,
    Basalt__UserList_Closure done, void *call)
{
	Basalt__UserList l = BASALT__USER_LIST__INIT;
	Basalt__UserInfo u = BASALT__USER_INFO__INIT, *us[1] = { &u };

	keep(LSB_USERS, &req->base);
	u.name = req->n_names > 0 ? req->names[0] : (char *)"?";
	u.jl_p = -1;
	u.max_jobs = -1;
	u.njobs = u.run = 1;
	l.n_users = 1;
	l.users = us;
	done(&l, call);
}

/* One result per requested id; with refuse, each is a permission error. */
static void
control_reply(const Basalt__JobQuery *sel,
    Basalt__JobControlReply_Closure done, void *call)
{
	Basalt__JobControlReply r = BASALT__JOB_CONTROL_REPLY__INIT;
	Basalt__JobResult res[4], *ptrs[4];
	Basalt__Error e = BASALT__ERROR__INIT;

	e.code = BASALT__ERROR_CODE__ERROR_CODE_PERMISSION;
	for (size_t i = 0; sel != NULL && i < sel->n_job_ids && i < 4; i++) {
		basalt__job_result__init(&res[i]);
		res[i].job_id = sel->job_ids[i];
		res[i].array_index = sel->array_indexes[i];
		res[i].error = refusing() ? &e : NULL;
		ptrs[i] = &res[i];
		r.n_results++;
	}
	r.results = ptrs;
	done(&r, call);
}

static void
fake_control(Basalt__BatchService_Service *s,
    const Basalt__JobControlRequest *req,
    Basalt__JobControlReply_Closure done, void *call)
{
	keep(LSB_CONTROL, &req->base);
	control_reply(req->select, done, call);
}

static void
fake_switch_queue(Basalt__BatchService_Service *s,
    const Basalt__SwitchRequest *req, Basalt__JobControlReply_Closure done,
    void *call)
{
	keep(LSB_SWITCH, &req->base);
	control_reply(req->select, done, call);
}

static void
fake_move(Basalt__BatchService_Service *s, const Basalt__MoveRequest *req,
    Basalt__MoveReply_Closure done, void *call)
{
	Basalt__MoveReply r = BASALT__MOVE_REPLY__INIT;

	keep(LSB_MOVE, &req->base);
	r.position = req->position;
	done(&r, call);
}

static void
fake_modify(Basalt__BatchService_Service *s, const Basalt__ModifyRequest *req,
    Basalt__JobControlReply_Closure done, void *call)
{
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	uint64_t id = req->job_id;
	uint32_t idx = req->array_index;

	keep(LSB_MODIFY, &req->base);
	q.n_job_ids = q.n_array_indexes = 1;
	q.job_ids = &id;
	q.array_indexes = &idx;
	control_reply(&q, done, call);
}

static void
fake_peek(Basalt__BatchService_Service *s, const Basalt__PeekRequest *req,
    Basalt__PeekReply_Closure done, void *call)
{
	Basalt__PeekReply r = BASALT__PEEK_REPLY__INIT;
	static const char text[] = "line one\nline two\n";

	keep(LSB_PEEK, &req->base);
	/* Half the text per call, so bpeek -f has to come back. */
	if (req->offset < sizeof text - 1) {
		r.stdout_data.data = (guint8 *)text + req->offset;
		r.stdout_data.len = 9;
	}
	r.next_offset = req->offset + r.stdout_data.len;
	r.finished = r.next_offset >= sizeof text - 1;
	done(&r, call);
}

static void
fake_admin(Basalt__BatchService_Service *s, const Basalt__AdminRequest *req,
    Basalt__AdminReply_Closure done, void *call)
{
	Basalt__AdminReply r = BASALT__ADMIN_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;
	char *msgs[] = { "Queue <normal> is closed" };
	char *errs[] = { "lsb.queues:3: PRIORITY: bad value" };

	keep(LSB_ADMIN, &req->base);
	if (refusing()) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_CONFIG;
		r.error = &e;
		r.n_config_errors = 1;
		r.config_errors = errs;
	} else if (req->action == BASALT__ADMIN_ACTION__ADMIN_ACTION_QCLOSE) {
		r.n_messages = 1;
		r.messages = msgs;
	}
	done(&r, call);
}

static void
fake_cluster(Basalt__BatchService_Service *s,
    const Basalt__ClusterInfoRequest *req,
    Basalt__ClusterInfo_Closure done, void *call)
{
	Basalt__ClusterInfo r = BASALT__CLUSTER_INFO__INIT;

	keep(LSB_CLUSTER, &req->base);
	r.cluster_name = "basalt";
	r.master_name = "hostA";
	done(&r, call);
}

static void
fake_limits(Basalt__BatchService_Service *s, const Basalt__LimitQuery *req,
    Basalt__LimitList_Closure done, void *call)
{
	Basalt__LimitList r = BASALT__LIMIT_LIST__INIT;

	keep(LSB_LIMITS, &req->base);
	done(&r, call);
}

static void
fake_history(Basalt__BatchService_Service *s,
    const Basalt__HistoryRequest *req, Basalt__HistoryPage_Closure done,
    void *call)
{
	Basalt__HistoryPage r = BASALT__HISTORY_PAGE__INIT;

	keep(LSB_HISTORY, &req->base);
	r.end = TRUE;
	done(&r, call);
}

static void
fake_wait(Basalt__BatchService_Service *s, const Basalt__WaitRequest *req,
    Basalt__WaitReply_Closure done, void *call)
{
	Basalt__WaitReply r = BASALT__WAIT_REPLY__INIT;

	keep(LSB_WAIT, &req->base);
	r.state = BASALT__WAIT_STATE__WAIT_STATE_SATISFIED;
	done(&r, call);
}

static void
fake_post(Basalt__BatchService_Service *s, const Basalt__PostRequest *req,
    Basalt__PostReply_Closure done, void *call)
{
	Basalt__PostReply r = BASALT__POST_REPLY__INIT;

	keep(LSB_POST, &req->base);
	done(&r, call);
}

static void
fake_read(Basalt__BatchService_Service *s, const Basalt__ReadRequest *req,
    Basalt__ReadReply_Closure done, void *call)
{
	Basalt__ReadReply r = BASALT__READ_REPLY__INIT;
	Basalt__JobMessage m = BASALT__JOB_MESSAGE__INIT;
	Basalt__JobMessage *list[1] = { &m };

	keep(LSB_READ, &req->base);
	/* Index 2 holds a message; every other index is empty. */
	if (req->index == 2) {
		m.index = 2;
		m.text = "step two done";
		m.user = "alice";
		m.time = T0;
		r.messages = list;
		r.n_messages = 1;
	}
	done(&r, call);
}

/* Two consumers of one resource group: a parent and its leaf. */
static void
fake_consumers(Basalt__BatchService_Service *s,
    const Basalt__ConsumerQuery *req, Basalt__ConsumerList_Closure done,
    void *call)
{
	Basalt__ConsumerList r = BASALT__CONSUMER_LIST__INIT;
	Basalt__ConsumerInfo x = BASALT__CONSUMER_INFO__INIT;
	Basalt__ConsumerInfo a = BASALT__CONSUMER_INFO__INIT;
	Basalt__ConsumerInfo *list[2] = { &x, &a };
	Basalt__ResourceGroupInfo g = BASALT__RESOURCE_GROUP_INFO__INIT;
	Basalt__ResourceGroupInfo *groups[1] = { &g };
	char *users[] = { "alice", "bob" };

	keep(LSB_CONSUMERS, &req->base);
	g.name = "rg1";
	g.plan_slots = 100;
	g.slots = 120;
	x.path = "/X";
	x.resource_group = "rg1";
	x.policy = "hybrid";
	x.depth = 1;
	x.owned = 10;
	x.owned_scaled = 12;
	x.limit = -1;
	x.demand = 30;
	x.quota = 20;
	x.alloc = 20;
	x.borrowed = 8;
	a.path = "/X/a_very_long_team_name";
	a.resource_group = "rg1";
	a.policy = "hybrid";
	a.depth = 2;
	a.leaf = TRUE;
	a.owned = 5;
	a.owned_scaled = 6;
	a.reserved = 2;
	a.limit = 20;
	a.rank = 1;
	a.demand = 30;
	a.quota = 20;
	a.alloc = 20;
	a.borrowed = 14;
	a.reason = "limited by LIMIT 20";
	a.users = users;
	a.n_users = 2;
	r.consumers = list;
	r.n_consumers = 2;
	r.groups = groups;
	r.n_groups = 1;
	r.cycle_time = T0;
	/* The parent's plan has a window; -at: a preview with one job. */
	x.time_window = "19:00-7:00";
	Basalt__PreviewJob pj = BASALT__PREVIEW_JOB__INIT;
	Basalt__PreviewJob *pjs[1] = { &pj };

	if (req->at != 0) {
		r.at = req->at;
		x.quota_now = 25;
		pj.job_id = 42;
		pj.user = "alice";
		pj.queue = "normal";
		pj.action = "reclaim-notice";
		pj.consumer = "/X/a_very_long_team_name";
		pj.for_consumer = "/Y";
		pj.slots = 1;
		pj.grace = 60;
		pj.deadline = req->at + 60;
		r.preview_jobs = pjs;
		r.n_preview_jobs = 1;
	}
	done(&r, call);
}

static void
fake_job_groups(Basalt__BatchService_Service *s,
    const Basalt__JobGroupQuery *req, Basalt__JobGroupList_Closure done,
    void *call)
{
	Basalt__JobGroupList r = BASALT__JOB_GROUP_LIST__INIT;

	keep(LSB_JOB_GROUPS, &req->base);
	done(&r, call);
}

static void
fake_job_group_control(Basalt__BatchService_Service *s,
    const Basalt__JobGroupRequest *req, Basalt__JobGroupReply_Closure done,
    void *call)
{
	Basalt__JobGroupReply r = BASALT__JOB_GROUP_REPLY__INIT;

	keep(LSB_JOB_GROUP_CONTROL, &req->base);
	done(&r, call);
}

static Basalt__BatchService_Service fake_service =
    BASALT__BATCH_SERVICE__INIT(fake_);

static gpointer
fake_thread(gpointer p)
{
	g_main_context_push_thread_default(fake.ctx);
	g_main_loop_run(fake.loop);
	g_main_context_pop_thread_default(fake.ctx);
	return NULL;
}

/* A temporary LSF_ENVDIR whose lsf.conf puts the socket in ./share. */
static void
make_envdir(void)
{
	g_autofree char *conf = NULL;
	g_autofree char *share = NULL;

	fake.envdir = g_dir_make_tmp("check-api-XXXXXX", NULL);
	ck_assert_ptr_nonnull(fake.envdir);
	conf = g_build_filename(fake.envdir, "lsf.conf", NULL);
	ck_assert(g_file_set_contents(conf, "# test\nLSB_SHAREDIR = \"share\"\n"
	    "LSB_API_RECVTIMEOUT=10\n", -1, NULL));
	share = g_build_filename(fake.envdir, "share", NULL);
	ck_assert_int_eq(mkdir(share, 0700), 0);
	fake.sock = g_build_filename(share, "mbatchd.sock", NULL);
}

void
fake_start(void)
{
	BsRpcServerOptions opts;
	GError *err = NULL;
	gint64 deadline = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;

	/* last[] is indexed by method: a method added to BatchService
	 * must grow it, or keep() writes past its end. */
	g_assert(basalt__batch_service__descriptor.n_methods == N_METHODS);
	g_mutex_init(&fake.lock);
	make_envdir();
	bs_rpc_server_options_init(&opts);
	opts.server_name = "fake-mbatchd";
	fake.ctx = g_main_context_new();
	fake.loop = g_main_loop_new(fake.ctx, FALSE);
	fake.srv = bs_rpc_server_new(&opts, fake.ctx);
	bs_rpc_server_register(fake.srv, BASALT__ROLE__ROLE_CLIENT,
	    &fake_service.base);
	ck_assert_msg(bs_rpc_server_listen_unix(fake.srv, fake.sock, &err),
	    "%s", err != NULL ? err->message : "");
	fake.thread = g_thread_new("fake-mbatchd", fake_thread, NULL);
	/* A quit sent before the loop runs would be lost. */
	while (!g_main_loop_is_running(fake.loop) &&
	    g_get_monotonic_time() < deadline)
		g_usleep(1000);
}

static void
remove_tree(const char *dir)
{
	g_autofree char *share = g_build_filename(dir, "share", NULL);
	g_autofree char *conf = g_build_filename(dir, "lsf.conf", NULL);

	unlink(conf);
	rmdir(share);
	rmdir(dir);
}

void
fake_stop(void)
{
	if (fake.thread != NULL) {
		g_main_loop_quit(fake.loop);
		g_thread_join(fake.thread);
		bs_rpc_server_free(fake.srv);
		g_main_loop_unref(fake.loop);
		g_main_context_unref(fake.ctx);
	}
	for (int i = 0; i < N_METHODS; i++)
		g_clear_pointer(&fake.last[i], g_bytes_unref);
	remove_tree(fake.envdir);
	g_free(fake.envdir);
	g_free(fake.sock);
	memset(&fake, 0, sizeof fake);
}

/* For the "mbatchd is down" tests: the envdir without a server. */
void
envdir_only(void)
{
	make_envdir();
}

