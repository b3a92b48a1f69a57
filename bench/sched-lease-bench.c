/*
 * sched-lease-bench: what one run of the lease stage costs
 * (mbatchd/sched/stage-lease.c) when every lease is due at once.
 *
 * 1,000 shared leases (a provider exporting to many consumers, or many
 * export policies) of 64 hosts with 8 slots each, 512,000 slots in all;
 * every lease is made and due for its MC_RECLAIM_DELAY evaluation, with
 * running jobs on both sides and demand on both, so every lease computes
 * its idle slots and moves them.  The stage copies each lease (its output
 * is a new state), so this is the cost of the copy and the rule together.
 *
 * Prints the median and the best of 7 runs.  Not part of `make check`:
 * the numbers depend on the machine.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "mbatchd/sched/lease.h"

#define N_LEASES 1000
#define HOSTS_PER_LEASE 64
#define SLOTS 8
#define RUNS 7

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(void)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	Lease **leases = g_new0(Lease *, N_LEASES);
	LeaseInput *in = g_new0(LeaseInput, N_LEASES);
	LeaseHostUse *use = g_new0(LeaseHostUse, (gsize)N_LEASES * HOSTS_PER_LEASE);
	int slots[HOSTS_PER_LEASE];
	const char *hn[HOSTS_PER_LEASE];
	double t[RUNS];
	guint moved = 0;

	for (guint h = 0; h < HOSTS_PER_LEASE; h++)
		slots[h] = SLOTS;
	for (guint i = 0; i < N_LEASES; i++) {
		g_autofree char *policy = g_strdup_printf("export%u", i);

		for (guint h = 0; h < HOSTS_PER_LEASE; h++) {
			char *n = g_strdup_printf("node%05u", i * HOSTS_PER_LEASE + h);

			g_ptr_array_add(names, n);
			hn[h] = n;
		}
		leases[i] = lease_new(policy, "prov", "cons", TRUE, hn, slots, HOSTS_PER_LEASE);
		leases[i]->made = TRUE;
		leases[i]->next_eval = 0;
		/* The consumer runs its one slot, the provider half of the rest. */
		for (guint h = 0; h < HOSTS_PER_LEASE; h++) {
			LeaseHostUse *u = &use[i * HOSTS_PER_LEASE + h];

			u->consumer_used = h == 0;
			u->provider_used = h % 2 == 0 ? SLOTS - (h == 0) : 0;
		}
		in[i] = (LeaseInput){ leases[i], &use[i * HOSTS_PER_LEASE], TRUE, TRUE, TRUE,
		    leases[i]->generation, FALSE };
	}
	printf("%u shared leases of %u hosts x %u slots, all due\n", N_LEASES,
	    HOSTS_PER_LEASE, SLOTS);
	for (guint r = 0; r < RUNS; r++) {
		LeaseStageIn sin = { 1000, 600, in, N_LEASES };
		LeaseStageOut out;
		gint64 t0 = g_get_monotonic_time();

		if (!lease_stage_run(&sin, &out, NULL)) {
			fprintf(stderr, "sched-lease-bench: the stage refused its input\n");
			return 1;
		}
		t[r] = (double)(g_get_monotonic_time() - t0) / 1000.0;
		moved = 0;
		for (guint i = 0; i < out.n; i++)
			moved += out.out[i].split_changed;
		lease_stage_out_clear(&out);
	}
	qsort(t, RUNS, sizeof(double), cmp);
	printf("lease stage: %u of %u leases moved; run median %.2f ms, best %.2f ms\n",
	    moved, N_LEASES, t[RUNS / 2], t[0]);
	for (guint i = 0; i < N_LEASES; i++)
		lease_free(leases[i]);
	g_free(leases);
	g_free(in);
	g_free(use);
	return 0;
}
