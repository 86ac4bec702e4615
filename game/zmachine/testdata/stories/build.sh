#!/bin/sh
# Rebuilds the test stories from their Inform 6 sources. The switches here
# are mirrored in ../../stories_test.go (TestStoriesRebuild): keep them in step.
#   -vN   Z-machine version
#   -e    economy mode: use the Abbreviate directives
#   -~S   no strict-mode run-time checks (the code is just what is written)
#   -q -w quiet: no banner, no warnings (they do not change the output)
# Serial directives in the sources make the builds byte-identical.
set -e
cd "$(dirname "$0")"
INFORM=${INFORM:-inform6}
LIB=${INFORM_LIB:-/usr/share/inform6/library}
"$INFORM" -q -w -v3 -e -~S opcodes3.inf opcodes3.z3
"$INFORM" -q -w -v5 -e -~S opcodes5.inf opcodes5.z5
"$INFORM" -q -w -v8 -e -~S +include_path="$LIB" opcodes8.inf opcodes8.z8
for s in undorng noname keys upper statusline; do
	"$INFORM" -q -w -v5 -~S "$s.inf" "$s.z5"
done
