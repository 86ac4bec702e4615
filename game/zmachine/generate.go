package zmachine

//go:generate sh testdata/stories/build.sh
