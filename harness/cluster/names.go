package cluster

import (
	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// MaxJobNameLength is the longest name KubernetesManifests gives a Job:
// an Indexed Job's pods are named and hostnamed <job>-<index>, which must
// stay within a DNS label's 63 characters.
const MaxJobNameLength = 52

// dnsLabel is a DNS-1123 label: what Kubernetes takes as the name of a
// namespace, and as a Job's name.
var dnsLabel = lazyregexp.New(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// dnsSubdomain is a DNS-1123 subdomain: what Kubernetes takes as the name
// of a ConfigMap, a Secret or a PersistentVolumeClaim.
var dnsSubdomain = lazyregexp.New(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// nonName is a run of the characters an experiment's name has that a
// Kubernetes name cannot.
var nonName = lazyregexp.New(`[^a-z0-9]+`)

// checkLabel refuses a value that is not a DNS-1123 label of at most max
// characters.
func checkLabel(option, value string, max int) error {
	if len(value) > max || !dnsLabel.MatchString(value) {
		return optionErrorf(option, "%s %q: not a Kubernetes name: want at most %d lower-case letters, digits and dashes, a letter or digit first and last (DNS-1123 label)", option, value, max)
	}
	return nil
}

// checkSubdomain refuses a value that is not a DNS-1123 subdomain.
func checkSubdomain(option, value string) error {
	if len(value) > 253 || !dnsSubdomain.MatchString(value) {
		return optionErrorf(option, "%s %q: not a Kubernetes name: want at most 253 lower-case letters, digits, dashes and dots, a letter or digit first and last (DNS-1123 subdomain)", option, value)
	}
	return nil
}

// KubernetesName is the name KubernetesManifests gives the objects of an
// experiment by default: grue-<name>, in lower case, each run of other
// characters a dash, cut to MaxJobNameLength. It is always a DNS-1123
// label.
func KubernetesName(experiment string) string {
	s := strings.Trim(nonName.ReplaceAllString(strings.ToLower(experiment), "-"), "-")
	n := "grue-" + s
	return strings.TrimRight(n[:min(len(n), MaxJobNameLength)], "-")
}
