package cli

// testNetwork is package clihttp's Network, for the tests that serve over
// HTTP: clihttp imports this package, so its tests cannot import clihttp;
// clihttp_test.go, in package cli_test, links it here before any test runs
// (see export_test.go). The commands under test keep the zero Network, as
// in grue, unless a test sets it.
var testNetwork Network
