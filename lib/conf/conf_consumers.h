/*
 * lsb.consumers: resource plans (issue 17; seeds/symphony-hybrid-policy.txt
 * as read in decisions.md "Hybrid policy").
 *
 *   Begin ResourceGroup         a named set of hosts and the size its plan
 *   NAME = rg1                  is written for (PLAN_SLOTS, default: the
 *   HOSTS = hostA hg1 | all     sum of the root-level OWNED of its plan)
 *   PLAN_SLOTS = 100
 *   End ResourceGroup
 *
 *   Begin Consumer              one node of the consumer tree, named by an
 *   NAME = /X/A                 absolute path whose parent was declared
 *   POLICY = hybrid             before it; POLICY only on first-level
 *   USERS = all                 consumers (the subtree inherits it)
 *   End Consumer
 *
 *   Begin Plan                  what each consumer owns, reserves, may use
 *   RESOURCE_GROUP = rg1        at most ... in one resource group; rows in
 *   CONSUMER OWNED RESERVED LIMIT RANK SHARE GRACE_PERIOD [LEND_LIMIT
 *   /X       10    0        -     0    -     60            BORROW_LIMIT
 *   End Plan                                               SHARE_LIMIT
 *                                                          POLICY]
 *
 * A Plan section is a horizontal part (RESOURCE_GROUP, TIME_WINDOW)
 * followed by one column table.  The lexer knows only one form per
 * section, so conf_consumers.c splits the section's text itself.  One
 * BsPlanConf is one Plan section: a group may have several, each with its
 * own TIME_WINDOW (LSF's time-window syntax, conf_time.h) and at most one
 * without, the default outside every window.
 *
 * The structs live in BsConfig.consumers, NULL when there is no
 * lsb.consumers (no plans: scheduling as without this file).  Everything
 * is kept by index so the scheduler's builder can copy it cheaply.
 */
#ifndef BS_CONF_CONSUMERS_H
#define BS_CONF_CONSUMERS_H

#include "conf/conf.h"

typedef enum {
	BS_CONSUMER_POLICY_UNSET = 0,   /* below the first level: the ancestor's */
	BS_CONSUMER_POLICY_HYBRID,      /* the default of a first-level consumer */
	BS_CONSUMER_POLICY_OWNERSHIP,
	BS_CONSUMER_POLICY_SHARE,
} BsConsumerPolicy;

typedef struct {
	char *name;             /* NAME */
	int line;               /* Begin ResourceGroup */
	char **hosts;           /* HOSTS as written (hosts, groups, all); NULL = all */
	int plan_slots;         /* PLAN_SLOTS; BS_CONF_UNLIMITED = not set */
	GHashTable *key_lines;
} BsResourceGroupConf;

typedef struct {
	char *path;             /* NAME: "/X/A", no trailing '/' */
	int line;               /* Begin Consumer */
	int parent;             /* index into BsConsumersConf.consumers, -1 at
	                         * the first level */
	int depth;              /* 1 for a first-level consumer */
	BsConsumerPolicy policy;    /* as written; UNSET when not */
	BsConsumerPolicy effective; /* its first-level ancestor's (never UNSET) */
	char **users;           /* USERS as written; NULL = all */
	/* WARNING_ACTION: the default warning action (a signal) of its
	 * subtree's jobs, the reclaim notice; NULL = none (issue 18). */
	char *warning_action;
	gboolean leaf;          /* no consumer names it as parent */
	GHashTable *key_lines;
} BsConsumerConf;

typedef struct {
	int consumer;           /* index into BsConsumersConf.consumers */
	int line;
	int owned;              /* OWNED, 0 */
	int reserved;           /* RESERVED, 0 */
	int limit;              /* LIMIT, BS_CONF_UNLIMITED */
	int rank;               /* RANK, BS_CONF_UNLIMITED = not written:
	                         * CONSUMER_RANK_DEFAULT, else 0 */
	double share;           /* SHARE (share policy), < 0 not written */
	int grace_period;       /* GRACE_PERIOD, seconds, 0 */
	int lend_limit;         /* LEND_LIMIT (ownership), BS_CONF_UNLIMITED */
	int borrow_limit;       /* BORROW_LIMIT (ownership), BS_CONF_UNLIMITED */
	int share_limit;        /* SHARE_LIMIT (share), BS_CONF_UNLIMITED */
	BsConsumerPolicy policy; /* POLICY (first level only): the branch's
	                         * policy while this plan holds; UNSET: the
	                         * Consumer section's */
} BsPlanRow;

typedef struct {
	int group;              /* index into BsConsumersConf.groups */
	int line;               /* Begin Plan */
	GPtrArray *rows;        /* BsPlanRow*, file order: the plan order that
	                         * breaks rank ties */
	GArray *windows;        /* TIME_WINDOW (BsTimeWindow); NULL: the group's
	                         * default plan, in force outside every window
	                         * of its other plans.  A group's windows never
	                         * overlap (checked at load). */
	int window_line;        /* the TIME_WINDOW line, 0 without */
} BsPlanConf;

struct BsConsumersConf {
	GPtrArray *groups;      /* BsResourceGroupConf*, file order */
	GPtrArray *consumers;   /* BsConsumerConf*, file order (parents first) */
	GHashTable *consumer_by_path;  /* path -> index + 1 */
	GPtrArray *plans;       /* BsPlanConf*, file order */
};

BsConsumersConf *bs_conf_consumers_new(void);
void bs_conf_consumers_free(BsConsumersConf *c);

/*
 * Parse text as lsb.consumers into cfg->consumers (replacing it), with
 * every problem in `diags` as `name:line: message`.  Host names and groups
 * are checked against cfg's cluster and lsb.hosts, so load those first.
 * bs_config_load() calls this for LSB_CONFDIR/lsb.consumers when the file
 * exists.
 */
void bs_conf_consumers_load_text(BsConfig *cfg, const char *name, const char *text,
    gsize len, gint64 now, BsDiags *diags);

/* Lookups; NULL when cfg has no lsb.consumers or no such name. */
const BsConsumerConf *bs_config_consumer(const BsConfig *cfg, const char *path);
int bs_config_consumer_index(const BsConfig *cfg, const char *path); /* -1 */
const BsResourceGroupConf *bs_config_resource_group(const BsConfig *cfg,
    const char *name);
/* A resource group's server hosts, groups and `all` resolved, in cluster
 * order.  g_strfreev() the result. */
char **bs_config_resource_group_hosts(const BsConfig *cfg,
    const BsResourceGroupConf *rg);
/* Whether `user` may submit to the consumer (USERS: names, user groups,
 * all).  TRUE when USERS is not set. */
gboolean bs_config_consumer_allows(const BsConfig *cfg, const BsConsumerConf *c,
    const char *user);
/* The plan of resource group `group` (index) in force at the local wall
 * clock time `t`: the one whose TIME_WINDOW is open then, else the one
 * without TIME_WINDOW; NULL when neither. */
const BsPlanConf *bs_config_plan_in_force(const BsConfig *cfg, int group, GDateTime *t);
/* The policy consumer (index) follows under plan pl (NULL: no plan): its
 * first-level ancestor's POLICY column in pl, else the Consumer
 * section's. */
BsConsumerPolicy bs_config_plan_policy(const BsConfig *cfg, const BsPlanConf *pl,
    int consumer);
/* The rank a row's consumer has: RANK, else CONSUMER_RANK_DEFAULT, else 0. */
int bs_config_plan_rank(const BsConfig *cfg, const BsPlanRow *row);

#endif
