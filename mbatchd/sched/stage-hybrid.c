/*
 * Stage: entitlement by resource plan.  Rule: seeds/symphony-hybrid-policy.txt
 * as read in decisions.md ("Hybrid policy").  (Being written.)
 */
#include "config.h"

#include "pass.h"

const char *
sched_consumer_policy_name(SchedConsumerPolicy p)
{
	switch (p) {
	case SCHED_POLICY_OWNERSHIP:
		return "ownership";
	case SCHED_POLICY_SHARE:
		return "share";
	default:
		return "hybrid";
	}
}

void
stage_hybrid(Pass *p)
{
	(void)p;
}
