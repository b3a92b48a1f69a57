/*
 * libFuzzer target for lib/conf: the input is parsed as an lsb.queues-like
 * file through the lexer and the queue loader, as `badmin ckconfig` would
 * with a hostile or corrupt file.  Any crash, leak or UB is a bug; the
 * diagnostics themselves are not checked.  Seeds: tests/fuzz/corpus-conf/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "conf/conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BsConfig *cfg = bs_config_new_empty();
	BsDiags *d = bs_diags_new();
	char *all;

	/* A fixed `now` keeps runs reproducible; #if time() still branches. */
	bs_conf_queues_load_text(cfg, "lsb.queues", (const char *)data, size, 1700000000, d);
	all = bs_diags_to_string(d);
	g_free(all);
	bs_diags_free(d);
	bs_config_free(cfg);
	return 0;
}
