/* lib/conf/conf_consumers_check.c: where lsb.queues meets lsb.consumers.
 * Each bad pairing is an error at the queue's CONSUMER line and fails the
 * whole load (so mbatchd's reconfig keeps its running configuration). */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "conf_test.h"
#include "conf/conf_consumers.h"

static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", "lsb.hosts", NULL,
};

static const char consumers[] =
	"Begin ResourceGroup\n"     /* 1 */
	"NAME = rg1\n"
	"HOSTS = all\n"
	"End ResourceGroup\n"
	"Begin Consumer\n"          /* 5 */
	"NAME = /X\n"
	"End Consumer\n"
	"Begin Consumer\n"
	"NAME = /X/A\n"
	"End Consumer\n"            /* 10 */
	"Begin Plan\n"
	"RESOURCE_GROUP = rg1\n"
	"CONSUMER OWNED\n"
	"/X       10\n"
	"/X/A     5\n"              /* 15 */
	"End Plan\n";

#define Q1 "Begin Queue\nQUEUE_NAME = a\n"
#define QEND "End Queue\n"

typedef struct {
	gboolean with_consumers;
	const char *queues;
	const char *want;
} Case;

static const Case cases[] = {
	{ TRUE, Q1 "CONSUMER = /X/A\n" QEND, "" },
	{ TRUE, Q1 "PRIORITY = 3\nCONSUMER = /nosuch\n" QEND,
	  "lsb.queues:4: queue a: CONSUMER names /nosuch, which is not a "
	  "consumer of lsb.consumers\n" },
	{ TRUE, Q1 "CONSUMER = /X\n" QEND,
	  "lsb.queues:3: queue a: CONSUMER names /X, which has sub-consumers: "
	  "a queue maps its jobs to a leaf consumer\n" },
	{ TRUE, Q1 "SLOT_POOL = P\nSLOT_SHARE = 50\nCONSUMER = /X/A\n" QEND,
	  "lsb.queues:5: queue a is in slot pool P and mapped to consumer /X/A: "
	  "a queue may be in a SLOT_POOL or have a CONSUMER, not both\n" },
	{ FALSE, Q1 "CONSUMER = /X/A\n" QEND,
	  "lsb.queues:3: queue a: CONSUMER names /X/A, which is not a consumer "
	  "of lsb.consumers\n" },
};

START_TEST(test_queue_consumer)
{
	const Case *c = &cases[_i];
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	BsConfig *cfg;

	if (c->with_consumers)
		conf_write(dir, "lsb.consumers", consumers);
	conf_write(dir, "lsb.queues", c->queues);
	cfg = conf_load_dir(dir, &diags);
	ck_assert_str_eq(diags, c->want);
	ck_assert((c->want[0] == '\0') == (cfg != NULL));
	if (cfg != NULL) {
		const BsQueueConf *q = bs_config_queue(cfg, "a");

		ck_assert_str_eq(q->consumer, "/X/A");
		ck_assert(bs_config_consumer(cfg, "/X/A")->leaf);
	}
	bs_config_free(cfg);
	conf_rmtree(dir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("conf_consumers_check");
	TCase *tc = tcase_create("queues");

	tcase_add_loop_test(tc, test_queue_consumer, 0, G_N_ELEMENTS(cases));
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
