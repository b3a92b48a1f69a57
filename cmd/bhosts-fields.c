/*
 * bhosts -o and -json: LSF 10.1's bhosts field list with its default
 * widths, over HostInfo.  Fields for what Basalt does not have (GPUs,
 * CPU factors, dispatch windows shown per host, admin comments) have no
 * value: "-" in custom output, "" in JSON.
 */
#include "config.h"

#include "bqueues-format.h"
#include "cmd-fields.h"

#define H(rec) ((const Basalt__HostInfo *)(rec))

static gboolean
f_name(GString *v, const void *r)
{
	g_string_append(v, H(r)->name);
	return TRUE;
}
static gboolean
f_status(GString *v, const void *r)
{
	g_string_append(v, H(r)->status);
	return TRUE;
}
static gboolean
f_jlu(GString *v, const void *r) { return cmd_field_limit(v, H(r)->jl_u); }
static gboolean
f_max(GString *v, const void *r) { return cmd_field_limit(v, H(r)->max_slots); }
static gboolean
f_njobs(GString *v, const void *r) { return cmd_field_int(v, H(r)->njobs); }
static gboolean
f_run(GString *v, const void *r) { return cmd_field_int(v, H(r)->run); }
static gboolean
f_ssusp(GString *v, const void *r) { return cmd_field_int(v, H(r)->ssusp); }
static gboolean
f_ususp(GString *v, const void *r) { return cmd_field_int(v, H(r)->ususp); }
static gboolean
f_rsv(GString *v, const void *r) { return cmd_field_int(v, H(r)->rsv); }
static gboolean
f_total_mem(GString *v, const void *r)
{
	if (H(r)->mem_kb == 0)
		return FALSE;
	g_string_append_printf(v, "%.1fG", (double)H(r)->mem_kb / 1048576.0);
	return TRUE;
}
static gboolean
f_none(GString *v, const void *r) { (void)v; (void)r; return FALSE; }

static const CmdFieldDef table[] = {
	{ "host_name hname", "HOST_NAME", 20, f_name },
	{ "status stat", "STATUS", 15, f_status },
	{ "cpuf", "CPUF", 10, f_none },
	{ "jl_u jlu", "JL_U", 8, f_jlu },
	{ "max", "MAX", 8, f_max },
	{ "njobs", "NJOBS", 8, f_njobs },
	{ "run", "RUN", 8, f_run },
	{ "ssusp", "SSUSP", 8, f_ssusp },
	{ "ususp", "USUSP", 8, f_ususp },
	{ "rsv", "RSV", 8, f_rsv },
	{ "dispatch_window dispwin", "DISPATCH_WINDOW", 50, f_none },
	{ "ngpus", "NGPUS", 8, f_none },
	{ "ngpus_alloc", "NGPUS_ALLOC", 11, f_none },
	{ "ngpus_excl_alloc", "NGPUS_EXCL_ALLOC", 16, f_none },
	{ "ngpus_shared_alloc", "NGPUS_SHARED_ALLOC", 18, f_none },
	{ "ngpus_shared_jexcl_alloc", "NGPUS_SHARED_JEXCL_ALLOC", 24, f_none },
	{ "ngpus_excl_avail", "NGPUS_EXCL_AVAIL", 16, f_none },
	{ "ngpus_shared_avail", "NGPUS_SHARED_AVAIL", 18, f_none },
	{ "attribute", "ATTRIBUTE", 50, f_none },
	{ "mig_alloc", "MIG_ALLOC", 50, f_none },
	{ "comments", "COMMENTS", 20, f_none },
	{ "available_mem", "AVAILABLE_MEM", 15, f_none },
	{ "reserved_mem", "RESERVED_MEM", 15, f_none },
	{ "total_mem", "TOTAL_MEM", 15, f_total_mem },
};

/* -json without -o: the default listing's columns. */
static const char default_fields[] =
	"host_name status jl_u max njobs run ssusp ususp rsv";

/* What "all" stands for. */
static const char all_fields[] =
	"host_name status cpuf jl_u max njobs run ssusp ususp rsv "
	"dispatch_window ngpus ngpus_alloc ngpus_excl_alloc "
	"ngpus_shared_alloc ngpus_shared_jexcl_alloc ngpus_excl_avail "
	"ngpus_shared_avail attribute mig_alloc comments available_mem "
	"reserved_mem total_mem";

static gboolean
find(const char *name, CmdFieldRef *ref)
{
	return cmd_field_def_ref(table, G_N_ELEMENTS(table), name, ref);
}

CmdFields *
bhosts_fields_parse(const char *spec, GError **error)
{
	return cmd_fields_parse("bhosts", spec != NULL ? spec : default_fields,
				find, all_fields, error);
}

void
bhosts_format_custom(GString *out, const CmdFields *f,
		     const Basalt__HostList *l, gboolean noheader)
{
	cmd_fields_print(out, f, noheader, (const void *const *)l->hosts,
			 l->n_hosts);
}

void
bhosts_format_json(GString *out, const CmdFields *f,
		   const Basalt__HostList *l)
{
	cmd_fields_json(out, f, "bhosts", "HOSTS",
			(const void *const *)l->hosts, l->n_hosts);
}
