#!/bin/sh
# Rebuilds the project's own stories from their Inform 6 source.
# Needs inform6 6.41 and the standard library 6.12
# (apt-get install -y inform6-compiler inform6-library). The source fixes its
# Serial, so a rebuild is byte-identical to the committed story file;
# stories_test.go (TestRebuild) checks that.
set -e
cd "$(dirname "$0")"
inform6 -q -w -v5 -e -~S +include_path=/usr/share/inform6/library lantern.inf lantern.z5
