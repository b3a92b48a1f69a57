/*
 * Resource requirement strings, as `bsub -R` and queue RES_REQ take them.
 *
 *   select[expr] order[idx:-idx] rusage[mem=500:duration=10, lic=1]
 *   span[hosts=1 | ptile=N | ptile=! | block=N] same[type:model]
 *   cu[...] affinity[...]
 *
 * Sections come in any order, each at most once, except select[], which may
 * repeat: the expressions are then joined with &&.  A string that starts
 * with an expression rather than a section keyword has that expression as
 * its select[] section ("mem>1000" is "select[mem>1000]").  cu[] and
 * affinity[] are kept as written and printed back, nothing more.
 *
 * Sizes: a number with a memory unit (2048MB, 2g, 1.5TB) is a size, held
 * in MB; in select[] a bare number compared with mem swp tmp maxmem
 * maxswp maxtmp, and in rusage[] a bare mem swp tmp value, is in the
 * caller's unit (LSF_UNIT_FOR_LIMITS, at least MB: see
 * bs_mem_unit_for_resources).
 *
 * Several strings (bsub -R given more than once) merge: select[] terms
 * are ANDed; order[] keys of a later string follow the earlier ones';
 * same[] names add up; a resource reserved in two strings' rusage[] is
 * reserved as the later says; span[], cu[] and affinity[] must agree.
 *
 * The module is pure: it parses into an immutable BsResReq, prints it back
 * in one canonical form (for bjobs -l and for the journal) and evaluates
 * the select[] expression against one host through a lookup callback.  It
 * knows nothing about hosts; the daemon and bhosts -R supply values.
 */
#ifndef BS_RESREQ_H
#define BS_RESREQ_H

#include <glib.h>

#include "util/memunit.h"

/* LSF refuses longer strings; so do we, before looking at them. */
#define BS_RESREQ_MAX_LEN 512
/* Parentheses and unary operators nested deeper than this are refused. */
#define BS_RESREQ_MAX_DEPTH 32

/*
 * `type==local` and `model==local` mean "the same as the submission host".
 * The evaluator asks the lookup for these names to learn the submission
 * host's type and model.
 */
#define BS_RESREQ_LOCAL_TYPE "local:type"
#define BS_RESREQ_LOCAL_MODEL "local:model"

/* span[ptile=!]: as many slots per host as the host has processors. */
#define BS_RESREQ_PTILE_ALL (-1)

typedef struct _BsResReq BsResReq;

typedef enum {
	BS_RES_UNDEFINED, /* the host does not have this resource */
	BS_RES_NUMBER,
	BS_RES_STRING,
	BS_RES_BOOLEAN,   /* a boolean resource the host defines */
} BsResKind;

typedef struct {
	BsResKind kind;
	double num;      /* NUMBER; BOOLEAN: 0 or 1 */
	const char *str; /* STRING; owned by the caller, valid during the call */
} BsResValue;

/*
 * The value of resource `name` on the host described by host_data: load
 * indices (r15s r1m r15m ut pg io ls it tmp swp mem), static resources
 * (ncpus maxmem maxswp maxtmp ndisks type model hname) and site resources.
 * Names are case-sensitive, as in LSF.
 */
typedef BsResValue (*BsResLookup)(const char *name, void *host_data);

/* One order[] key: a load index, sorted descending when written `-name`. */
typedef struct {
	const char *name;
	gboolean descending;
} BsResOrderKey;

/* bare sizes in MB */
BsResReq *bs_resreq_parse(const char *text, GError **error);
/* bare sizes in unit (LSF_UNIT_FOR_LIMITS) */
BsResReq *bs_resreq_parse_units(const char *text, BsMemUnit unit,
    GError **error);
/* texts[0..n) merged, in that order (see the rules above) */
BsResReq *bs_resreq_parse_many(const char *const *texts, guint n,
    BsMemUnit unit, GError **error);
/* Drops one reference: the parse's, or one taken with bs_resreq_ref. */
void bs_resreq_free(BsResReq *rr);
/*
 * One more reference to rr.  A parsed requirement is never changed, so
 * holders of the same text (under the same unit) may share one parse.
 */
BsResReq *bs_resreq_ref(BsResReq *rr);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BsResReq, bs_resreq_free)

/* Canonical text: sections that were given, in the order select, order,
 * rusage, span, same, cu, affinity; parsing it with bs_resreq_parse()
 * gives an equal BsResReq (sizes carry "MB" when the parse's unit was not
 * MB, so the text means the same to any reader).  It can be a little
 * longer than the input (an added "select[...]", parentheses), so it may
 * pass BS_RESREQ_MAX_LEN: keep the user's string for resubmission and use
 * this for display. */
char *bs_resreq_to_string(const BsResReq *rr);

/*
 * Does the host satisfy select[]?  TRUE if it does (or there is no
 * select[]).  FALSE with *error unset if it does not; FALSE with *error
 * set if the expression cannot be evaluated on this host (a string where a
 * number is needed, division by zero): the host then does not qualify.
 * Comparisons with an undefined resource are false, `!=` included.
 */
gboolean bs_resreq_select_eval(const BsResReq *rr, BsResLookup lookup,
    void *host_data, GError **error);
gboolean bs_resreq_has_select(const BsResReq *rr);

/* order[] keys; "r15s:pg" when the string has no order[]. */
guint bs_resreq_order_len(const BsResReq *rr);
BsResOrderKey bs_resreq_order_key(const BsResReq *rr, guint i);

/* rusage[]: the amount of a resource reserved (a resource appears at most
 * once), in MB for mem, swp, tmp (a KB/GB/TB suffix is converted to MB);
 * 0 if the resource is not reserved.  Per slot or per job is the caller's
 * policy, as in LSF (RESOURCE_RESERVE_PER_TASK). */
double bs_resreq_rusage(const BsResReq *rr, const char *name);
double bs_resreq_rusage_mem_mb(const BsResReq *rr);
/* duration= of the block that reserves `name`, in minutes; -1 = the whole
 * run of the job (or not reserved).  decay=1 of that block. */
int bs_resreq_rusage_duration(const BsResReq *rr, const char *name);
gboolean bs_resreq_rusage_decay(const BsResReq *rr, const char *name);

/* span[]: hosts=N (0 if not given) and ptile=N (0 if not given,
 * BS_RESREQ_PTILE_ALL for ptile=!). */
int bs_resreq_span_hosts(const BsResReq *rr);
int bs_resreq_span_ptile(const BsResReq *rr);
/* span[block=N]: N, 0 if not given.  Accepted, not acted on. */
int bs_resreq_span_block(const BsResReq *rr);

/*
 * LSF 10.1's brace forms.  `{A} || {B}` (alternative) and `n*{A} + m*{B}`
 * (compound) are accepted; the requirement in use is always the first
 * part, A: for a compound one over n + m slots.  The other parts must
 * parse but are not used.  compound_slots: n + m, 0 if the string is not
 * compound; alternatives: how many were given, 0 if not that form.
 */
int bs_resreq_compound_slots(const BsResReq *rr);
int bs_resreq_alternatives(const BsResReq *rr);

/* same[]: the resource names, NULL-terminated, owned by rr (NULL if none). */
const char *const *bs_resreq_same(const BsResReq *rr);

#endif
