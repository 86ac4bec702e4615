package cli

// LinkTestNetwork gives this package's tests package clihttp's Network
// (see network_link_test.go).
func LinkTestNetwork(n Network) { testNetwork = n }
