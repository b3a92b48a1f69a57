/*
 * A JobInfo of a query with JobQuery.fields set, packed by hand: those
 * fields are eleven of fifty, and protobuf-c's generic size and pack walk
 * all fifty of every job, twice.  The bytes are those protobuf-c packs for
 * a JobInfo whose other fields are unset (tests/unit/check_job_row.c).
 */
#ifndef BASALT_MBATCHD_SVC_JOB_ROW_H
#define BASALT_MBATCHD_SVC_JOB_ROW_H

#include <glib.h>

#include "common.pb-c.h"

/* The packed size of info's job_id, array_index, user, state, queue,
 * from_host, exec_hosts, job_name, submit_time, pending_reason and
 * suspend_reason; the other fields must be unset. */
gsize svc_job_row_size(const Basalt__JobInfo *info);
/* Packs them into out, svc_job_row_size(info) bytes. */
void svc_job_row_pack(const Basalt__JobInfo *info, guint8 *out);

#endif
