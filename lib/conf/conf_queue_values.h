/*
 * Structured lsb.queues values (conf_queue_values.c), internal to lib/conf.
 */
#ifndef BS_CONF_QUEUE_VALUES_H
#define BS_CONF_QUEUE_VALUES_H

#include "conf/conf_schema.h"

/* Letters, digits, _ and - (and . when `dots`, for host names). */
gboolean bs_conf_valid_name(const char *s, gboolean dots);
void bs_conf_host_ref_free(gpointer p);
void bs_conf_ptr_array_clear(void *field);
void bs_conf_string_clear(void *field);
void bs_conf_preemption_clear(void *field);
void bs_conf_requeue_clear(void *field);
void bs_conf_job_controls_clear(void *field);
void bs_conf_exclusive_clear(void *field);
void bs_conf_int_array_clear(void *field);

gboolean bs_conf_parse_queue_name(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_hosts(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_preemption(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_fairshare(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_requeue(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_exit_codes(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_job_controls(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_control_alias(const BsConfKey *k, const char *v, void *f, GString *why);
/* LOCAL_MAX_PREEXEC_RETRY_ACTION = SUSPEND | EXIT, into an int BsPreexecAction. */
gboolean bs_conf_parse_preexec_action(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_slot_reserve(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_exclusive(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_proclimit(const BsConfKey *k, const char *v, void *f, GString *why);
gboolean bs_conf_parse_dispatch_order(const BsConfKey *k, const char *v, void *f, GString *why);

#endif
