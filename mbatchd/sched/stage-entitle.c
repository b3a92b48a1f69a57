/*
 * Stage: entitlement.  Rule: seeds/lsf-queue-based-fairshare.txt as read
 * in decisions.md ("Queue-based fairshare"): the queues of a SLOT_POOL
 * share its slots by SLOT_SHARE, each entitled to ceil(T x share / 100) in
 * PRIORITY order, leftovers to the queues with unmet demand.  The pool's
 * total T is measured when the pool's turn comes in the pass, after the
 * higher-priority queues outside it have dispatched, so the entitlements
 * themselves are computed at that turn (pool.c, pools_take_turn); this
 * stage sets the pools up, before the order is fixed, and the plan then
 * carries each queue's deserved slots for bqueues -l.
 *
 * The resource plans of lsb.consumers (seeds/symphony-hybrid-policy.txt)
 * are the sibling stage stage-hybrid.c, run here: capacity and demand
 * become a quota per consumer and resource group, which placement then
 * holds each consumer's jobs to.
 */
#include "config.h"

#include "pass.h"

void
stage_entitlement(Pass *p)
{
	p->pools = pools_new(p);
	stage_hybrid(p);
}
