#!/bin/sh
# Regenerate the autotools files after a fresh clone.
set -e
cd "$(dirname "$0")"
autoreconf -fi
