#!/usr/bin/env bash
# Writes WRAPPER: a script that runs TOOL (the aarch64 rapidurl) under qemu-aarch64 with
# SHIM (scripts/nothreads.c built for aarch64) preloaded, so that no thread can start
# (qemu-user hangs at a program's first thread on these machines) and the tool runs on
# one thread. Its stderr is merged into its stdout, as a terminal shows them, with the
# tool's note that it runs on one thread taken out; its exit status is the tool's.
# scripts/test-aarch64.sh runs the documentation's transcripts with it, scripts/test-dist.sh
# the release archive's.
#
#   scripts/aarch64-tool-wrapper.sh SHIM TOOL WRAPPER
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: scripts/aarch64-tool-wrapper.sh SHIM TOOL WRAPPER" >&2; exit 2; }
shim=$1
tool=$2
wrapper=$3
qemu=(timeout 600 qemu-aarch64 -L /usr/aarch64-linux-gnu -E "LD_PRELOAD=$shim")
{
    echo '#!/usr/bin/env bash'
    echo '# The aarch64 rapidurl under qemu-aarch64, no thread able to start (scripts/nothreads.c);'
    echo '# its note saying that it runs on one thread is taken out of stderr (merged into stdout).'
    printf '%q ' "${qemu[@]}" "$tool"
    echo '"$@" 2>&1 \'
    echo "    | sed '/^rapidurl: cannot start a thread (.*); running on one thread\$/d'"
    echo 'exit "${PIPESTATUS[0]}"'
} >"$wrapper"
chmod +x "$wrapper"
