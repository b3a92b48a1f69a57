/*
 * MultiCluster leases: the stage's invariants over random inputs, and the
 * lease state journaled and replayed.  The journal tests run the real
 * stage over a timeline, turn each outcome into events
 * (state_lease_outcome_events), pack and unpack them as the journal does,
 * apply them to a State, and check that a fresh State replaying the same
 * events, and one loading a checkpoint of it, hold the same leases: what a
 * restart of mbatchd rebuilds.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/sched/lease.h"
#include "mbatchd/state/lease-wire.h"
#include "mbatchd/state/state.h"
#include "tap.h"

static Lease *
shared_lease(const char *policy, guint nhosts, int slots)
{
	const char *names[] = { "hA", "hB", "hC", "hD", "hE", "hF" };
	int sl[6];

	for (guint i = 0; i < nhosts; i++)
		sl[i] = slots;
	return lease_new(policy, "prov", "cons", TRUE, names, sl, nhosts);
}

/* Run the stage on one lease; the new lease replaces *l. */
static LeaseOutcome
step(Lease **l, const LeaseHostUse *use, gboolean pp, gboolean cp, gboolean linked,
    guint64 acked, gint64 now, int delay, gint64 *wake)
{
	LeaseInput in = { *l, use, pp, cp, linked, acked, FALSE };
	LeaseStageIn sin = { now, delay, &in, 1 };
	LeaseStageOut out;
	LeaseOutcome o;
	GError *err = NULL;

	ck_assert_msg(lease_stage_run(&sin, &out, &err), "%s", err ? err->message : "");
	ck_assert_uint_eq(out.n, 1);
	o = out.out[0];
	lease_free(*l);
	*l = o.lease;
	out.out[0].lease = NULL;
	if (wake != NULL)
		*wake = out.wake;
	lease_stage_out_clear(&out);
	return o;
}

START_TEST(test_start_state)
{
	const char *names[] = { "hA", "hB" };
	int slots[] = { 4, 4 };
	g_autoptr(Lease) s = lease_new("p", "prov", "cons", TRUE, names, slots, 2);
	g_autoptr(Lease) x = lease_new("p", "prov", "cons", FALSE, names, slots, 2);

	ck_assert_int_eq(lease_provider_slots(s), 7);
	ck_assert_int_eq(lease_consumer_slots(s), 1);
	ck_assert(!s->made);
	ck_assert(s->next_eval == G_MAXINT64);
	ck_assert_int_eq(lease_consumer_slots(x), 8);
	ck_assert_int_eq(lease_provider_slots(x), 0);
	ck_assert(x->made);
}
END_TEST

START_TEST(test_refuses_bad_input)
{
	g_autoptr(Lease) l = shared_lease("p", 1, 4);
	LeaseHostUse use = { 3, 2 };        /* 5 used on a 4-slot host */
	LeaseInput in = { l, &use, TRUE, TRUE, TRUE, 1, FALSE };
	LeaseStageIn sin = { 100, 10, &in, 1 };
	LeaseStageOut out;
	GError *err = NULL;

	ck_assert(!lease_stage_run(&sin, &out, &err));
	ck_assert_ptr_nonnull(err);
	ck_assert_uint_eq(out.n, 0);
	g_clear_error(&err);
	sin.reclaim_delay = 0;
	use.consumer_used = 1;
	ck_assert(!lease_stage_run(&sin, &out, &err));
	g_clear_error(&err);
}
END_TEST

/*
 * Random timelines: whatever the use and demand, slots are conserved on
 * every host, running jobs keep their slots on their side, a tie or no
 * demand changes nothing, the winner of an update is the side that had
 * fewer idle slots, and an update always makes the lease inactive.
 */
START_TEST(test_random_invariants)
{
	GRand *r = g_rand_new_with_seed(1919);

	for (int run = 0; run < 300; run++) {
		guint nh = (guint)g_rand_int_range(r, 1, 6);
		Lease *l = shared_lease("p", nh, g_rand_int_range(r, 1, 9));
		LeaseHostUse use[6] = { { 0, 0 } };
		gint64 now = 1000;

		for (int k = 0; k < 40; k++) {
			g_autoptr(Lease) before = lease_copy(l);
			gboolean pp = g_rand_boolean(r), cp = g_rand_boolean(r);
			int ip = 0, ic = 0;
			LeaseOutcome o;

			/* Jobs start and end inside each side's slots. */
			for (guint h = 0; h < nh; h++) {
				const LeaseHost *lh = l->hosts->pdata[h];

				use[h].consumer_used = g_rand_int_range(r, 0, lh->consumer_slots + 1);
				use[h].provider_used = g_rand_int_range(r, 0,
				    lh->slots - lh->consumer_slots + 1);
				ic += lh->consumer_slots - use[h].consumer_used;
				ip += lh->slots - lh->consumer_slots - use[h].provider_used;
			}
			now += g_rand_int_range(r, 1, 25);
			o = step(&l, use, pp, cp, TRUE, before->generation, now, 10, NULL);
			for (guint h = 0; h < nh; h++) {
				const LeaseHost *a = l->hosts->pdata[h];

				ck_assert_int_ge(a->consumer_slots, use[h].consumer_used);
				ck_assert_int_ge(a->slots - a->consumer_slots, use[h].provider_used);
				ck_assert_int_le(a->consumer_slots, a->slots);
			}
			if (!o.evaluated) {
				ck_assert(!o.split_changed);
				continue;
			}
			ck_assert_int_eq(l->last_idle_provider, ip);
			ck_assert_int_eq(l->last_idle_consumer, ic);
			if (ip == ic || (!pp && !cp)) {
				ck_assert(!o.split_changed);
				ck_assert_uint_eq(l->generation, before->generation);
			}
			if (o.split_changed) {
				ck_assert_int_eq(l->status, LEASE_INACTIVE);
				ck_assert_uint_eq(l->generation, before->generation + 1);
				/* All idle slots went to the side with fewer. */
				if (ip > ic)
					ck_assert_int_eq(lease_consumer_slots(l),
					    lease_consumer_slots(before) + ip);
				else
					ck_assert_int_eq(lease_provider_slots(l),
					    lease_provider_slots(before) + ic);
			}
		}
		lease_free(l);
	}
	g_rand_free(r);
}
END_TEST

/* What each side may dispatch into: nothing while inactive, nothing for
 * the consumer while disconnected, else the side's idle slots. */
START_TEST(test_open_slots)
{
	g_autoptr(Lease) l = shared_lease("p", 2, 4);
	LeaseHostUse u = { 1, 0 };

	ck_assert_int_eq(lease_open_slots(l, 0, &u, TRUE), 1);
	ck_assert_int_eq(lease_open_slots(l, 0, &u, FALSE), 2);
	ck_assert_int_eq(lease_open_slots(l, 1, &u, TRUE), 0);
	ck_assert_int_eq(lease_open_slots(l, 1, &u, FALSE), 3);
	ck_assert_int_eq(lease_open_slots(l, 2, &u, FALSE), 0);
	l->status = LEASE_INACTIVE;
	ck_assert_int_eq(lease_open_slots(l, 0, &u, TRUE), 0);
	ck_assert_int_eq(lease_open_slots(l, 1, &u, FALSE), 0);
	l->status = LEASE_DISCONNECTED;
	ck_assert_int_eq(lease_open_slots(l, 0, &u, TRUE), 0);
	ck_assert_int_eq(lease_open_slots(l, 1, &u, FALSE), 3);
}
END_TEST

/*
 * lease_divide over random exports: every slot is given, a PER_HOST
 * consumer is within one slot of its exact share on each host, a
 * RES_SELECT host goes wholly to one consumer and each consumer is within
 * one host of its share of the hosts.
 */
START_TEST(test_divide)
{
	GRand *r = g_rand_new_with_seed(42);

	for (int run = 0; run < 500; run++) {
		guint nc = (guint)g_rand_int_range(r, 1, 5), nh = (guint)g_rand_int_range(r, 1, 7);
		int shares[5], slots[7], out[35];
		gboolean whole = g_rand_boolean(r);
		gint64 total = 0;

		for (guint c = 0; c < nc; c++)
			total += shares[c] = g_rand_int_range(r, 1, 10);
		for (guint h = 0; h < nh; h++)
			slots[h] = g_rand_int_range(r, 1, 33);
		lease_divide(shares, nc, slots, nh, whole, out);
		for (guint h = 0; h < nh; h++) {
			int sum = 0, owners = 0;

			for (guint c = 0; c < nc; c++) {
				int v = out[c * nh + h];

				sum += v;
				owners += v > 0;
				if (!whole) {
					ck_assert_int_ge((gint64)v * total, (gint64)slots[h] * shares[c] - total);
					ck_assert_int_le((gint64)v * total, (gint64)slots[h] * shares[c] + total);
				}
			}
			ck_assert_int_eq(sum, slots[h]);
			if (whole)
				ck_assert_int_eq(owners, 1);
		}
		for (guint c = 0; whole && c < nc; c++) {
			gint64 got = 0;

			for (guint h = 0; h < nh; h++)
				got += out[c * nh + h] > 0;
			ck_assert_int_ge(got * total, (gint64)nh * shares[c] - total);
			ck_assert_int_le(got * total, (gint64)nh * shares[c] + total);
		}
	}
	g_rand_free(r);
}
END_TEST

/* ---- journal ------------------------------------------------------------ */

/* The journal: each event packed as mbatchd writes it, applied live. */
typedef struct {
	State *live;
	GPtrArray *records;       /* GBytes*, packed Basalt__Event */
	guint64 seq;
} Journal;

static void
record(Journal *j, GPtrArray *events)
{
	for (guint i = 0; i < events->len; i++) {
		Basalt__Event *ev = events->pdata[i];
		gsize n;
		guint8 *buf;
		GError *err = NULL;

		ev->seq = ++j->seq;
		n = basalt__event__get_packed_size(ev);
		buf = g_malloc(MAX(n, 1));
		basalt__event__pack(ev, buf);
		g_ptr_array_add(j->records, g_bytes_new_take(buf, n));
		ck_assert_msg(state_apply(j->live, ev, &err), "%s", err ? err->message : "");
	}
}

/* Replay packed events into st, as a restart reads the journal. */
static void
replay(State *st, GPtrArray *records)
{
	for (guint i = 0; i < records->len; i++) {
		gsize n;
		const guint8 *d = g_bytes_get_data(records->pdata[i], &n);
		Basalt__Event *ev = basalt__event__unpack(NULL, n, d);
		GError *err = NULL;

		ck_assert_ptr_nonnull(ev);
		ck_assert_msg(state_apply(st, ev, &err), "%s", err ? err->message : "");
		basalt__event__free_unpacked(ev, NULL);
	}
}

static GPtrArray *
packed(GPtrArray *events)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);

	for (guint i = 0; i < events->len; i++) {
		gsize n = basalt__event__get_packed_size(events->pdata[i]);
		guint8 *buf = g_malloc(MAX(n, 1));

		basalt__event__pack(events->pdata[i], buf);
		g_ptr_array_add(out, g_bytes_new_take(buf, n));
	}
	return out;
}

static char *
describe(const State *s)
{
	GString *t = g_string_new(NULL);
	g_autoptr(GList) keys = g_list_sort(g_hash_table_get_keys(s->leases), (GCompareFunc)strcmp);

	for (GList *k = keys; k != NULL; k = k->next) {
		const Lease *l = g_hash_table_lookup(s->leases, k->data);

		g_string_append_printf(t, "%s %s %s shared=%d made=%d %s gen=%" G_GUINT64_FORMAT
		    " last=%" G_GINT64_FORMAT " idle=%d/%d next=%" G_GINT64_FORMAT " split=",
		    l->policy, l->provider, l->consumer, l->shared, l->made,
		    lease_status_name(l->status), l->generation, l->last_eval,
		    l->last_idle_provider, l->last_idle_consumer, l->next_eval);
		for (guint i = 0; i < l->hosts->len; i++) {
			const LeaseHost *h = l->hosts->pdata[i];

			g_string_append_printf(t, "%s:%d/%d ", h->name, h->consumer_slots, h->slots);
		}
		g_string_append_c(t, '\n');
	}
	return g_string_free(t, FALSE);
}

/* Run one stage step over the journal's leases and journal its outcomes. */
static gint64
journal_step(Journal *j, Lease **leases, LeaseHostUse **use, guint n, gboolean linked,
    gint64 now)
{
	g_autofree LeaseInput *in = g_new0(LeaseInput, n);
	LeaseStageIn sin = { now, 10, in, n };
	LeaseStageOut out;
	GPtrArray *events = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *blocks = g_ptr_array_new_with_free_func(g_free);
	GError *err = NULL;
	gint64 wake;

	for (guint i = 0; i < n; i++)
		in[i] = (LeaseInput){ leases[i], use[i], TRUE, TRUE, linked,
		    leases[i]->generation, FALSE };
	ck_assert_msg(lease_stage_run(&sin, &out, &err), "%s", err ? err->message : "");
	for (guint i = 0; i < n; i++)
		state_lease_outcome_events(&out.out[i], now, events, blocks);
	record(j, events);
	for (guint i = 0; i < n; i++) {
		lease_free(leases[i]);
		leases[i] = out.out[i].lease;
		out.out[i].lease = NULL;
	}
	wake = out.wake;
	lease_stage_out_clear(&out);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	return wake;
}

/* The leases the stage holds, in the describe() form (sorted by key). */
static char *
describe_leases(Lease **leases, guint n)
{
	State *tmp = state_new();
	GPtrArray *events = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *blocks = g_ptr_array_new_with_free_func(g_free);
	char *text;

	/* A state holding exactly these leases, through the checkpoint form. */
	for (guint i = 0; i < n; i++)
		state_lease_new_event(leases[i], 0, events, blocks);
	for (guint i = 0; i < events->len; i++)
		ck_assert(state_apply(tmp, events->pdata[i], NULL));
	for (guint i = 0; i < n; i++) {
		Lease *l = (Lease *)state_lease(tmp, leases[i]->policy, leases[i]->consumer);

		ck_assert_ptr_nonnull(l);
		l->status = leases[i]->status;
		l->last_eval = leases[i]->last_eval;
		l->last_idle_provider = leases[i]->last_idle_provider;
		l->last_idle_consumer = leases[i]->last_idle_consumer;
	}
	text = describe(tmp);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(tmp);
	return text;
}

START_TEST(test_journal_replay_restores_leases)
{
	const char *names[] = { "hA", "hB" };
	int slots[] = { 4, 4 };
	Journal j = { state_new(), g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref), 0 };
	Lease *leases[2] = {
		lease_new("east", "prov", "c2", TRUE, names, slots, 2),
		lease_new("west", "prov", "c3", FALSE, names, slots, 2),
	};
	LeaseHostUse east_use[2] = { { 0, 0 }, { 0, 0 } }, west_use[2] = { { 0, 0 }, { 0, 0 } };
	LeaseHostUse *use[2] = { east_use, west_use };
	GPtrArray *events = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *blocks = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *want = NULL, *got = NULL, *from_ckpt = NULL;
	State *restarted, *ckpt;
	GPtrArray *cevents, *cblocks, *cpacked;
	const Lease *rl;

	for (guint i = 0; i < 2; i++)
		state_lease_new_event(leases[i], 1000, events, blocks);
	record(&j, events);
	/* The consumer's first job makes east; then an evaluation gives it
	 * the provider's idle slots (inactive), the consumer applies it
	 * (ok), and the link drops (disconnected). */
	east_use[0].consumer_used = 1;
	ck_assert(journal_step(&j, leases, use, 2, TRUE, 1000) == 1010);
	east_use[1].provider_used = 2;
	journal_step(&j, leases, use, 2, TRUE, 1010);
	ck_assert_int_eq(leases[0]->status, LEASE_INACTIVE);
	ck_assert_int_eq(lease_consumer_slots(leases[0]), 6);
	journal_step(&j, leases, use, 2, TRUE, 1011);
	ck_assert_int_eq(leases[0]->status, LEASE_OK);
	journal_step(&j, leases, use, 2, FALSE, 1015);
	ck_assert_int_eq(leases[0]->status, LEASE_DISCONNECTED);
	ck_assert_uint_eq(state_leases(j.live)->len, 2);
	ck_assert_str_eq(((const Lease *)state_leases(j.live)->pdata[0])->policy, "east");
	ck_assert_str_eq(((const Lease *)state_leases(j.live)->pdata[1])->policy, "west");

	want = describe_leases(leases, 2);
	got = describe(j.live);
	ck_assert_str_eq(got, want);
	ck_assert_ptr_nonnull(strstr(want, "east prov c2 shared=1 made=1 disconnected gen=2 "
	    "last=1010 idle=5/0 next=1020 split=hA:4/4 hB:2/4"));
	ck_assert_ptr_nonnull(strstr(want, "west prov c3 shared=0 made=1 disconnected gen=1 last=0 "
	    "idle=0/0 next=9223372036854775807 split=hA:4/4 hB:4/4"));

	/* A restart: a fresh state replays the journal. */
	restarted = state_new();
	replay(restarted, j.records);
	g_free(got);
	got = describe(restarted);
	ck_assert_str_eq(got, want);

	/* A checkpoint of the live state, packed and read back. */
	cevents = state_export_events(j.live, &cblocks);
	cpacked = packed(cevents);
	ckpt = state_new();
	replay(ckpt, cpacked);
	from_ckpt = describe(ckpt);
	ck_assert_str_eq(from_ckpt, want);

	/* The stage carries on from the restored lease: due at 1020 once
	 * the link is back, and not before. */
	rl = state_lease(restarted, "east", "c2");
	ck_assert_ptr_nonnull(rl);
	{
		Lease *again = lease_copy(rl);
		LeaseOutcome o = step(&again, east_use, TRUE, TRUE, TRUE, again->generation, 1019,
		    10, NULL);

		ck_assert(!o.evaluated);
		ck_assert_int_eq(again->status, LEASE_OK);
		o = step(&again, east_use, TRUE, TRUE, TRUE, again->generation, 1020, 10, NULL);
		ck_assert(o.evaluated);
		lease_free(again);
	}

	g_ptr_array_free(cevents, TRUE);
	g_ptr_array_free(cblocks, TRUE);
	g_ptr_array_free(cpacked, TRUE);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	g_ptr_array_free(j.records, TRUE);
	state_free(ckpt);
	state_free(restarted);
	state_free(j.live);
	lease_free(leases[0]);
	lease_free(leases[1]);
}
END_TEST

/* What does not fit a lease is refused and changes nothing; a policy
 * that is gone ends its lease. */
START_TEST(test_hostile_events_refused)
{
	const char *names[] = { "hA", "hB" };
	int slots[] = { 4, 4 };
	g_autoptr(Lease) l = lease_new("east", "prov", "c2", TRUE, names, slots, 2);
	State *s = state_new();
	GPtrArray *events = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *blocks = g_ptr_array_new_with_free_func(g_free);
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvLeaseSplit sp = BASALT__EV_LEASE_SPLIT__INIT;
	Basalt__EvLeaseStatus st = BASALT__EV_LEASE_STATUS__INIT;
	Basalt__EvLeaseHost h1 = BASALT__EV_LEASE_HOST__INIT, h2 = BASALT__EV_LEASE_HOST__INIT;
	Basalt__EvLeaseHost *hs[2] = { &h1, &h2 };
	g_autofree char *before = NULL, *after = NULL;
	GError *err = NULL;

	state_lease_new_event(l, 0, events, blocks);
	ck_assert(state_apply(s, events->pdata[0], NULL));
	before = describe(s);

	ev.body_case = BASALT__EVENT__BODY_LEASE_SPLIT;
	ev.lease_split = &sp;
	sp.policy = "east";
	sp.consumer = "c2";
	sp.n_hosts = 1;                 /* a lease of two hosts */
	sp.hosts = hs;
	h1.host = "hA";
	h1.consumer_slots = 2;
	ck_assert(!state_apply(s, &ev, &err));
	g_clear_error(&err);
	sp.n_hosts = 2;
	h2.host = "hB";
	h2.consumer_slots = 9;          /* more than hB exports */
	ck_assert(!state_apply(s, &ev, &err));
	g_clear_error(&err);
	h2.host = "hZ";                 /* not the lease's host */
	h2.consumer_slots = 1;
	ck_assert(!state_apply(s, &ev, &err));
	g_clear_error(&err);
	sp.consumer = "nobody";
	ck_assert(!state_apply(s, &ev, &err));
	g_clear_error(&err);

	ev.body_case = BASALT__EVENT__BODY_LEASE_STATUS;
	ev.lease_status = &st;
	st.policy = "east";
	st.consumer = "c2";
	st.status = 7;
	ck_assert(!state_apply(s, &ev, &err));
	g_clear_error(&err);
	after = describe(s);
	ck_assert_str_eq(after, before);

	st.status = 0;
	st.ended = TRUE;
	ck_assert(state_apply(s, &ev, NULL));
	ck_assert_ptr_null(state_lease(s, "east", "c2"));
	ck_assert_uint_eq(state_leases(s)->len, 0);

	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(s);
}
END_TEST

/* A lease to the consumer and back is the same lease; a peer's message
 * that does not hold together is refused. */
START_TEST(test_wire)
{
	const char *names[] = { "hA", "hB" };
	int slots[] = { 4, 6 };
	g_autoptr(Lease) l = lease_new("east", "prov", "c2", TRUE, names, slots, 2);
	GPtrArray *blocks = g_ptr_array_new_with_free_func(g_free);
	Basalt__LeaseState *w;
	Lease *back;
	guint8 *buf;
	gsize n;
	Basalt__LeaseState *u;
	GError *err = NULL;
	uint32_t too_many = 5;

	l->made = TRUE;
	l->status = LEASE_INACTIVE;
	l->generation = 4;
	((LeaseHost *)l->hosts->pdata[1])->consumer_slots = 5;
	l->last_eval = 1010;
	l->last_idle_provider = 3;
	l->last_idle_consumer = 1;
	l->next_eval = 1020;
	w = lease_to_wire(l, blocks);
	n = basalt__lease_state__get_packed_size(w);
	buf = g_malloc(n);
	basalt__lease_state__pack(w, buf);
	u = basalt__lease_state__unpack(NULL, n, buf);
	ck_assert_ptr_nonnull(u);
	back = lease_from_wire(u, &err);
	ck_assert_ptr_nonnull(back);
	{
		Lease *pair[2] = { l, back };
		g_autofree char *a = describe_leases(pair, 1), *b = describe_leases(pair + 1, 1);

		ck_assert_str_eq(a, b);
	}
	ck_assert_int_eq(back->status, LEASE_INACTIVE);
	lease_free(back);

	/* More consumer slots than exported on a host. */
	u->exported_slots[0] = 0;
	ck_assert_ptr_null(lease_from_wire(u, &err));
	g_clear_error(&err);
	u->exported_slots[0] = 4;
	u->hosts[0]->slots = too_many;
	ck_assert_ptr_null(lease_from_wire(u, &err));
	g_clear_error(&err);
	u->hosts[0]->slots = 1;
	u->status = BASALT__LEASE_STATUS__LEASE_STATUS_CONN;
	ck_assert_ptr_null(lease_from_wire(u, &err));
	g_clear_error(&err);
	u->status = BASALT__LEASE_STATUS__LEASE_STATUS_OK;
	u->n_exported_slots = 1;
	ck_assert_ptr_null(lease_from_wire(u, &err));
	g_clear_error(&err);
	u->n_exported_slots = 2;
	u->consumer[0] = '\0';
	ck_assert_ptr_null(lease_from_wire(u, &err));
	g_clear_error(&err);

	basalt__lease_state__free_unpacked(u, NULL);
	g_free(buf);
	g_ptr_array_free(blocks, TRUE);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("lease");
	TCase *stage = tcase_create("stage");
	TCase *journal = tcase_create("journal");

	tcase_add_test(stage, test_start_state);
	tcase_add_test(stage, test_refuses_bad_input);
	tcase_add_test(stage, test_random_invariants);
	tcase_add_test(stage, test_divide);
	tcase_add_test(stage, test_open_slots);
	tcase_add_test(journal, test_journal_replay_restores_leases);
	tcase_add_test(journal, test_hostile_events_refused);
	tcase_add_test(journal, test_wire);
	suite_add_tcase(s, stage);
	suite_add_tcase(s, journal);
	return bs_run_suite(s);
}
