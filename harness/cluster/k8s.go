package cluster

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/boundedfile"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Where the pods of KubernetesManifests find the config and the shared
// volume.
const (
	KubernetesConfigDir = "/etc/grue"
	KubernetesDataDir   = "/data"
)

// KubernetesOptions are what KubernetesManifests needs besides the
// config: each field is the grue exp k8s flag of the same name.
type KubernetesOptions struct {
	// Shards is the Job's completions: the number of shards (required).
	Shards int
	// Image is the container image with grue in it (required).
	Image string
	// PVC is the PersistentVolumeClaim mounted at /data, ReadWriteMany,
	// shared by the pods (required).
	PVC string
	// Out is the run directory, relative to /data; by default
	// runs/<the experiment's name>.
	Out string
	// Name is the ConfigMap's and the Job's name; by default
	// KubernetesName of the experiment's.
	Name string
	// Namespace is the objects' namespace; empty, kubectl's.
	Namespace string
	// Parallelism is how many pods run at once; 0, all the shards.
	Parallelism int
	// BackoffLimitPerIndex is how many times each index is retried
	// before it counts as failed.
	BackoffLimitPerIndex int
	// CPUs is each pod's CPU request, a Kubernetes quantity; by default
	// the config's parallel.
	CPUs string
	// Memory is each pod's memory request and limit, a Kubernetes
	// quantity such as 2Gi; empty, none.
	Memory string
	// Secret names a Secret whose keys become the pods' environment.
	Secret string
}

// quantity is a Kubernetes resource quantity with no sign: 2, 0.5, 500m,
// 2Gi, 1e3.
var quantity = lazyregexp.New(`^([0-9]+(\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$`)

// KubernetesManifests reads the experiment config at cfgPath (and the
// prompt files it names) and returns, as two YAML documents, a ConfigMap
// that holds them and an Indexed Job of o.Shards completions: the pod of
// index I runs "grue exp run /etc/grue/config.yaml --out /data/OUT
// --resume" with JOB_COMPLETION_INDEX=I and GRUE_SHARD_COUNT=o.Shards, so
// it plays shard I into /data/OUT/shards/. The config is decoded strictly
// but not validated: its story files are on the claim, not necessarily
// on this machine; the pods validate it.
//
// Every name is checked to be a Kubernetes (DNS-1123) name and every
// other value to hold no control character; a value that is not is an
// *OptionError, and nothing is written.
func KubernetesManifests(cfgPath string, o KubernetesOptions) ([]byte, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	raw, err := boundedfile.ReadFile(cfgPath, harness.MaxConfigBytes)
	if err != nil {
		return nil, fmt.Errorf("k8s manifest: %w", err)
	}
	cfg, err := harness.ParseConfig(raw, cfgPath)
	if err != nil {
		return nil, err
	}
	if len(cfg.Variants) == 0 || len(cfg.Games) == 0 {
		return nil, fmt.Errorf("k8s manifest: %s names no variants or no games", cfgPath)
	}
	name := o.Name
	if name == "" {
		name = KubernetesName(cfg.Name)
	}
	if err := checkLabel("--name", name, MaxJobNameLength); err != nil {
		return nil, err
	}
	out := o.Out
	if out == "" {
		out = path.Join("runs", cfg.Name)
		if err := checkText("--out", out); err != nil {
			return nil, fmt.Errorf("%w (the default, from the config's name: give --out)", err)
		}
	}
	if path.IsAbs(out) || out == ".." || strings.HasPrefix(path.Clean(out), "../") {
		return nil, optionErrorf("--out", "--out %q: give a folder under the claim, relative to %s", out, KubernetesDataDir)
	}
	cm, items, err := kubernetesConfigMap(cfgPath, raw, cfg, name, o.Namespace)
	if err != nil {
		return nil, err
	}
	j := kubernetesJob(cfg, name, path.Join(KubernetesDataDir, out), items, o)
	var b bytes.Buffer
	// The comment's values are names checked above and Go-quoted
	// strings: none can end its line.
	fmt.Fprintf(&b, "# grue experiment %s: %d shards into %s on claim %s.\n",
		strconv.Quote(cfg.Name), o.Shards, strconv.Quote(path.Join(KubernetesDataDir, out)), o.PVC)
	for i, obj := range []any{cm, j} {
		y, err := encode(obj)
		if err != nil {
			return nil, fmt.Errorf("k8s manifest: %w", err)
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(y)
	}
	return b.Bytes(), nil
}

// check checks the options that do not depend on the config.
func (o KubernetesOptions) check() error {
	switch {
	case o.Shards < 1:
		return optionErrorf("--shards", "--shards N is required: the number of pods, a shard each")
	case o.Image == "":
		return optionErrorf("--image", "--image is required: a container image with grue in it")
	case o.PVC == "":
		return optionErrorf("--pvc", "--pvc is required: a ReadWriteMany claim the pods share for the results")
	case o.Parallelism < 0:
		return optionErrorf("--parallelism", "--parallelism must not be negative, not %d", o.Parallelism)
	case o.BackoffLimitPerIndex < 0:
		return optionErrorf("--backoff-limit-per-index", "--backoff-limit-per-index must not be negative, not %d", o.BackoffLimitPerIndex)
	}
	if err := checkText("--image", o.Image); err != nil {
		return err
	}
	if strings.ContainsAny(o.Image, " ") {
		return optionErrorf("--image", "--image %q: an image reference has no spaces", o.Image)
	}
	if err := checkSubdomain("--pvc", o.PVC); err != nil {
		return err
	}
	if o.Namespace != "" {
		if err := checkLabel("--namespace", o.Namespace, 63); err != nil {
			return err
		}
	}
	if o.Secret != "" {
		if err := checkSubdomain("--secret", o.Secret); err != nil {
			return err
		}
	}
	if o.Out != "" {
		if err := checkText("--out", o.Out); err != nil {
			return err
		}
	}
	for _, q := range []struct{ option, value string }{{"--cpus", o.CPUs}, {"--memory", o.Memory}} {
		if q.value != "" && !quantity.MatchString(q.value) {
			return optionErrorf(q.option, "%s %q: not a Kubernetes quantity (such as 2, 500m, 4Gi)", q.option, q.value)
		}
	}
	return nil
}

// kubernetesConfigMap holds the config file and the prompt files it
// names, and the items that mount each where the config looks for it.
func kubernetesConfigMap(cfgPath string, raw []byte, cfg *harness.Config, name, ns string) (*configMap, []keyToPath, error) {
	cm := &configMap{
		APIVersion: "v1", Kind: "ConfigMap",
		Metadata: objectMeta{Name: scalar(name), Namespace: scalar(ns), Labels: map[string]scalar{"app.kubernetes.io/name": "grue"}},
		Data:     map[string]text{},
	}
	if err := checkUTF8(cfgPath, raw); err != nil {
		return nil, nil, err
	}
	cm.Data["config.yaml"] = text(raw)
	items := []keyToPath{{Key: "config.yaml", Path: "config.yaml"}}
	for i, v := range cfg.Variants {
		if v.SystemPromptFile == "" {
			continue
		}
		rel := filepath.ToSlash(v.SystemPromptFile)
		if path.IsAbs(rel) || rel == ".." || strings.HasPrefix(path.Clean(rel), "../") {
			return nil, nil, fmt.Errorf("k8s manifest: variant %s: system_prompt_file %q is not under the config's folder, so it cannot go in the ConfigMap beside it; put it there, or give its text as system_prompt", v.Name, v.SystemPromptFile)
		}
		file := filepath.Join(filepath.Dir(cfgPath), v.SystemPromptFile)
		b, err := boundedfile.ReadFile(file, harness.MaxPromptBytes)
		if err != nil {
			return nil, nil, fmt.Errorf("k8s manifest: variant %s: %w", v.Name, err)
		}
		if err := checkUTF8(file, b); err != nil {
			return nil, nil, fmt.Errorf("k8s manifest: variant %s: %w", v.Name, err)
		}
		key := "prompt-" + strconv.Itoa(i)
		cm.Data[key] = text(b)
		items = append(items, keyToPath{Key: scalar(key), Path: scalar(path.Clean(rel))})
	}
	return cm, items, nil
}

// checkUTF8 refuses a file a ConfigMap's data cannot hold: its values
// are UTF-8 text.
func checkUTF8(file string, b []byte) error {
	if !utf8.Valid(b) {
		return fmt.Errorf("k8s manifest: %s is not UTF-8 text, which a ConfigMap's data must be", file)
	}
	return nil
}

// kubernetesJob is the Indexed Job: one pod a shard.
func kubernetesJob(cfg *harness.Config, name, out string, items []keyToPath, o KubernetesOptions) *job {
	par := o.Shards
	if o.Parallelism > 0 {
		par = min(o.Parallelism, o.Shards)
	}
	cpus := o.CPUs
	if cpus == "" {
		cpus = strconv.Itoa(max(1, cfg.Parallel))
	}
	res := resources{Requests: map[string]scalar{"cpu": scalar(cpus)}}
	if o.Memory != "" {
		res.Requests["memory"] = scalar(o.Memory)
		res.Limits = map[string]scalar{"memory": scalar(o.Memory)}
	}
	c := container{
		Name:  "grue",
		Image: scalar(o.Image),
		Args:  []scalar{"exp", "run", scalar(path.Join(KubernetesConfigDir, "config.yaml")), "--out", scalar(out), "--resume", "--quiet"},
		Env: []envVar{
			{Name: harness.EnvShardCount, Value: scalar(strconv.Itoa(o.Shards))},
			{Name: "GRUE_GAMES", Value: scalar(path.Join(KubernetesDataDir, "games"))},
		},
		Resources: res,
		VolumeMounts: []volumeMount{
			{Name: "config", MountPath: KubernetesConfigDir, ReadOnly: true},
			{Name: "data", MountPath: KubernetesDataDir},
		},
	}
	if o.Secret != "" {
		c.EnvFrom = []envFrom{{SecretRef: objectRef{Name: scalar(o.Secret)}}}
	}
	labels := func() map[string]scalar {
		return map[string]scalar{"app.kubernetes.io/name": "grue", "grue/experiment": scalar(name)}
	}
	return &job{
		APIVersion: "batch/v1", Kind: "Job",
		Metadata: objectMeta{Name: scalar(name), Namespace: scalar(o.Namespace), Labels: labels()},
		Spec: jobSpec{
			CompletionMode:       "Indexed",
			Completions:          o.Shards,
			Parallelism:          par,
			BackoffLimitPerIndex: o.BackoffLimitPerIndex,
			Template: podTemplateSpec{
				Metadata: objectMeta{Labels: labels()},
				Spec: podSpec{
					RestartPolicy: "Never",
					Containers:    []container{c},
					Volumes: []volume{
						{Name: "config", ConfigMap: &configMapVolume{Name: scalar(name), Items: items}},
						{Name: "data", PersistentVolumeClaim: &claimVolume{ClaimName: scalar(o.PVC)}},
					},
				},
			},
		},
	}
}
