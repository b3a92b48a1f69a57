#include "config.h"
#include "util/error.h"

G_DEFINE_QUARK(basalt-error-quark, bs_error)
