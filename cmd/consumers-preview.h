/*
 * The preview layout shared by `badmin reconfig -preview` and
 * `bconsumers -at TIME`: each consumer's quota under the previewed plan
 * against the current one, then the running jobs the previewed pass would
 * reclaim or preempt, with their grace deadlines.
 */
#ifndef BS_CMD_CONSUMERS_PREVIEW_H
#define BS_CMD_CONSUMERS_PREVIEW_H

#include <glib.h>

#include "pb.h"

void consumers_preview_format(GString *out, gint64 at,
    Basalt__ConsumerInfo *const *c, size_t n_c,
    Basalt__PreviewJob *const *j, size_t n_j);

#endif
