/*
 * Where lsb.queues meets lsb.consumers (issue 17, decisions.md "Hybrid
 * policy"): errors at the queue's CONSUMER line, run with the other
 * cross-file checks once every file is loaded, so a bad pairing fails
 * the whole load (mbatchd's start, badmin reconfig, badmin ckconfig)
 * and a running mbatchd keeps its configuration.
 *
 *   - CONSUMER naming a consumer lsb.consumers does not declare (or
 *     there is no lsb.consumers at all);
 *   - CONSUMER naming a consumer that has sub-consumers: jobs count
 *     against leaves only, so a parent would take no job;
 *   - a queue both in a SLOT_POOL and mapped to a consumer: the pool's
 *     shares and the plan's quotas would each claim the same slots.
 */
#include "config.h"

#include "conf/conf_consumers.h"
#include "conf/conf_internal.h"

static int
consumer_line(const BsQueueConf *q)
{
	int l = bs_conf_key_line(q->key_lines, "CONSUMER");

	return l > 0 ? l : q->line;
}

void
bs_conf_consumers_check(BsConfig *cfg, BsDiags *d)
{
	BsConfCtx ctx = { d, "lsb.queues", 0 };

	for (guint i = 0; i < cfg->queues->len; i++) {
		const BsQueueConf *q = cfg->queues->pdata[i];
		const BsConsumerConf *c;

		if (q->consumer == NULL)
			continue;
		c = bs_config_consumer(cfg, q->consumer);
		if (c == NULL)
			ctx_error(&ctx, consumer_line(q), "queue %s: CONSUMER names "
			    "%s, which is not a consumer of lsb.consumers",
			    q->name, q->consumer);
		else if (!c->leaf)
			ctx_error(&ctx, consumer_line(q), "queue %s: CONSUMER names "
			    "%s, which has sub-consumers: a queue maps its jobs "
			    "to a leaf consumer", q->name, q->consumer);
		if (q->slot_pool != NULL)
			ctx_error(&ctx, consumer_line(q), "queue %s is in slot pool "
			    "%s and mapped to consumer %s: a queue may be in a "
			    "SLOT_POOL or have a CONSUMER, not both", q->name,
			    q->slot_pool, q->consumer);
	}
}
