#!/bin/sh
# Rebuilds the game package's test stories from their Inform 6 sources.
# The switches are mirrored in ../../infocom_test.go (TestInfocomStoriesRebuild):
# keep them in step. The Serial directives make the builds byte-identical.
set -e
cd "$(dirname "$0")"
INFORM=${INFORM:-inform6}
"$INFORM" -q -w -v3 -~S infocom3.inf infocom3.z3
"$INFORM" -q -w -v5 -~S nomax.inf nomax.z5
"$INFORM" -q -w -v3 -~S time3.inf time3.z3
"$INFORM" -q -w -v5 -~S infocom5.inf infocom5.z5
"$INFORM" -q -w -v5 -~S +include_path=/usr/share/inform6/library libend.inf libend.z5
"$INFORM" -q -w -v3 -~S timescore3.inf timescore3.z3
"$INFORM" -q -w -v3 -~S sunglasses3.inf sunglasses3.z3
