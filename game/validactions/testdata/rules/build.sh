#!/bin/sh
# Rebuilds the test story for the valid-action pruning rules from its
# Inform 6 source (inform6 6.41, library 6.12); Serial makes the build
# byte-identical.
set -e
cd "$(dirname "$0")"
inform6 -q -w -v5 -e -~S +include_path=${INFORM_LIB:-/usr/share/inform6/library} rules.inf rules.z5
