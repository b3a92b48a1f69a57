/*
 * Slot counters for one scheduling pass: what each queue, user, group, host
 * and their pairs hold.  Built once from the running jobs, then bumped as the
 * pass dispatches, so every limit check is a lookup, not a scan.
 */
#ifndef BS_SCHED_COUNT_H
#define BS_SCHED_COUNT_H

#include "sched.h"

typedef struct {
	int *host;                /* [n_hosts] slots counting against MXJ */
	int *queue;               /* [n_queues] */
	int *user;                /* [n_users] */
	int *group;               /* [n_groups] */
	GHashTable *queue_user;   /* pair key -> slots */
	GHashTable *queue_host;
	GHashTable *user_host;
	GHashTable *array;        /* array job id -> started elements */
} SchedCount;

void sched_count_init(SchedCount *c, const SchedSnapshot *snap);
void sched_count_clear(SchedCount *c);
/* Add `slots` on `host` held by a job of `queue` and `user`. */
void sched_count_add(SchedCount *c, const SchedSnapshot *snap, guint queue,
    guint user, guint host, int slots);
void sched_count_add_array(SchedCount *c, guint64 array_id);

int sched_count_pair(GHashTable *t, guint a, guint b);
int sched_count_array(const SchedCount *c, guint64 array_id);

#endif
