package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"

	"strconv"
	"strings"

	"github.com/spf13/cobra"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/cli"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Where the pods of grue exp k8s find the config and the shared volume.
const (
	k8sConfigDir = "/etc/grue"
	k8sDataDir   = "/data"
)

// expK8sFlags are grue exp k8s's command line.
type expK8sFlags struct {
	shards      int
	image       string
	pvc         string
	out         string
	name        string
	namespace   string
	parallelism int
	backoff     int
	cpus        string
	memory      string
	secret      string
}

func newExpK8sCmd(stdout io.Writer) *cobra.Command {
	var f expK8sFlags
	cmd := &cobra.Command{
		Use:   "k8s CONFIG.yaml --shards N --image IMAGE --pvc CLAIM",
		Short: "Print a Kubernetes Indexed Job that runs an experiment, a shard a pod",
		Long: `Print a ConfigMap holding the experiment's config (and the prompt files it
names) and an Indexed Job of N completions: the pod of index I runs
"grue exp run --out /data/OUT --resume" with JOB_COMPLETION_INDEX=I and
GRUE_SHARD_COUNT=N, so it plays shard I/N into /data/OUT/shards/. /data is
the PersistentVolumeClaim CLAIM (ReadWriteMany, shared by the pods); story
files are looked for in /data/games. Each index is retried on its own
(backoffLimitPerIndex, Kubernetes 1.29 or later) and resumes what it
lacks. Apply it with:

  grue exp k8s CONFIG.yaml --shards 8 --image IMAGE --pvc CLAIM | kubectl apply -f -

then follow it with grue exp status /data/OUT from any pod that mounts the
claim, and merge it with grue exp merge. --secret names a Secret whose keys
become the pods' environment (OPENAI_API_KEY, OPENAI_BASE_URL, GRUE_MODEL).`,
		Args: cli.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := k8sManifests(args[0], f)
			if err != nil {
				return err
			}
			_, err = stdout.Write(b)
			return err
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&f.shards, "shards", 0, "the Job's completions: the number of shards (required)")
	fl.StringVar(&f.image, "image", "", "the container image with grue in it (required; see the Dockerfile)")
	fl.StringVar(&f.pvc, "pvc", "", "the PersistentVolumeClaim mounted at /data, shared by the pods (required)")
	fl.StringVar(&f.out, "out", "", "the run directory under /data (default runs/<name>)")
	fl.StringVar(&f.name, "name", "", "the Job's and ConfigMap's name (default grue-<name>)")
	fl.StringVar(&f.namespace, "namespace", "", "the namespace (default: kubectl's)")
	fl.IntVar(&f.parallelism, "parallelism", 0, "pods at once (default: all the shards)")
	fl.IntVar(&f.backoff, "backoff-limit-per-index", 2, "retries of each index before it counts as failed")
	fl.StringVar(&f.cpus, "cpus", "", "each pod's CPU request (default: the config's parallel)")
	fl.StringVar(&f.memory, "memory", "", "each pod's memory request and limit (such as 2Gi)")
	fl.StringVar(&f.secret, "secret", "", "a Secret whose keys become the pods' environment")
	return cmd
}

// dnsLabel matches what Kubernetes takes as a name.
var dnsLabel = lazyregexp.New(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// k8sName makes an experiment's name a Kubernetes name: grue-<name>,
// lower case, other characters as dashes.
func k8sName(name string) string {
	s := strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(name), "-"), "-")
	return strings.TrimRight(("grue-" + s)[:min(len("grue-"+s), 52)], "-")
}

// k8sManifests builds the ConfigMap and the Job, as YAML documents.
func k8sManifests(cfgPath string, f expK8sFlags) ([]byte, error) {
	switch {
	case f.shards < 1:
		return nil, cli.UsageError{Err: errors.New("--shards N is required: the number of pods, a shard each")}
	case f.image == "":
		return nil, cli.UsageError{Err: errors.New("--image is required: a container image with grue in it")}
	case f.pvc == "":
		return nil, cli.UsageError{Err: errors.New("--pvc is required: a ReadWriteMany claim the pods share for the results")}
	case f.parallelism < 0 || f.backoff < 0:
		return nil, cli.UsageError{Err: errors.New("--parallelism and --backoff-limit-per-index must not be negative")}
	}
	// Decoded strictly but not validated here: the story files are on
	// the claim, not necessarily on this machine; the pods validate it.
	raw, err := os.ReadFile(cfgPath)
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
	name := f.name
	if name == "" {
		name = k8sName(cfg.Name)
	}
	if !dnsLabel.MatchString(name) || len(name) > 52 {
		return nil, cli.UsageError{Err: fmt.Errorf("--name %q: want lower-case letters, digits and dashes, at most 52", name)}
	}
	out := f.out
	if out == "" {
		out = path.Join("runs", cfg.Name)
	}
	if path.IsAbs(out) || strings.HasPrefix(path.Clean(out), "..") {
		return nil, cli.UsageError{Err: fmt.Errorf("--out %q: give a folder under the claim, relative to /data", out)}
	}
	cm, items, err := k8sConfigMap(cfgPath, raw, cfg, name, f.namespace)
	if err != nil {
		return nil, err
	}
	job, err := k8sJob(cfg, name, path.Join(k8sDataDir, out), items, f)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# grue experiment %s: %d shards into %s on claim %s.\n", cfg.Name, f.shards, path.Join(k8sDataDir, out), f.pvc)
	for i, obj := range []any{cm, job} {
		y, err := yaml.Marshal(obj)
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

// k8sConfigMap holds the config file and the prompt files it names, and
// the items that mount each where the config looks for it.
func k8sConfigMap(cfgPath string, raw []byte, cfg *harness.Config, name, ns string) (*corev1.ConfigMap, []corev1.KeyToPath, error) {
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app.kubernetes.io/name": "grue"}},
		Data:       map[string]string{},
	}
	cm.Data["config.yaml"] = string(raw)
	items := []corev1.KeyToPath{{Key: "config.yaml", Path: "config.yaml"}}
	for i, v := range cfg.Variants {
		if v.SystemPromptFile == "" {
			continue
		}
		rel := filepath.ToSlash(v.SystemPromptFile)
		if path.IsAbs(rel) || strings.HasPrefix(path.Clean(rel), "..") {
			return nil, nil, fmt.Errorf("k8s manifest: variant %s: system_prompt_file %q is not under the config's folder, so it cannot go in the ConfigMap beside it; put it there, or give its text as system_prompt", v.Name, v.SystemPromptFile)
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(cfgPath), v.SystemPromptFile))
		if err != nil {
			return nil, nil, fmt.Errorf("k8s manifest: variant %s: %w", v.Name, err)
		}
		key := "prompt-" + strconv.Itoa(i)
		cm.Data[key] = string(b)
		items = append(items, corev1.KeyToPath{Key: key, Path: path.Clean(rel)})
	}
	return cm, items, nil
}

// k8sJob is the Indexed Job: one pod a shard.
func k8sJob(cfg *harness.Config, name, out string, items []corev1.KeyToPath, f expK8sFlags) (*batchv1.Job, error) {
	n := int32(f.shards)
	par := n
	if f.parallelism > 0 {
		par = int32(min(f.parallelism, f.shards))
	}
	mode := batchv1.IndexedCompletion
	backoff := int32(f.backoff)
	cpus := f.cpus
	if cpus == "" {
		cpus = strconv.Itoa(max(1, cfg.Parallel))
	}
	res := corev1.ResourceRequirements{Requests: corev1.ResourceList{}, Limits: corev1.ResourceList{}}
	q, err := resource.ParseQuantity(cpus)
	if err != nil {
		return nil, cli.UsageError{Err: fmt.Errorf("--cpus %q: %w", cpus, err)}
	}
	res.Requests[corev1.ResourceCPU] = q
	if f.memory != "" {
		m, err := resource.ParseQuantity(f.memory)
		if err != nil {
			return nil, cli.UsageError{Err: fmt.Errorf("--memory %q: %w", f.memory, err)}
		}
		res.Requests[corev1.ResourceMemory], res.Limits[corev1.ResourceMemory] = m, m
	}
	c := corev1.Container{
		Name:  "grue",
		Image: f.image,
		Args:  []string{"exp", "run", path.Join(k8sConfigDir, "config.yaml"), "--out", out, "--resume", "--quiet"},
		Env: []corev1.EnvVar{
			{Name: harness.EnvShardCount, Value: strconv.Itoa(f.shards)},
			{Name: "GRUE_GAMES", Value: path.Join(k8sDataDir, "games")},
		},
		Resources: res,
		VolumeMounts: []corev1.VolumeMount{
			{Name: "config", MountPath: k8sConfigDir, ReadOnly: true},
			{Name: "data", MountPath: k8sDataDir},
		},
	}
	if f.secret != "" {
		c.EnvFrom = []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: f.secret}}}}
	}
	labels := map[string]string{"app.kubernetes.io/name": "grue", "grue/experiment": name}
	job := &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: f.namespace, Labels: labels},
		Spec: batchv1.JobSpec{
			CompletionMode:       &mode,
			Completions:          &n,
			Parallelism:          &par,
			BackoffLimitPerIndex: &backoff,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					Containers:    []corev1.Container{c},
					Volumes: []corev1.Volume{
						{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
							LocalObjectReference: corev1.LocalObjectReference{Name: name}, Items: items}}},
						{Name: "data", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: f.pvc}}},
					},
				},
			},
		},
	}
	return job, nil
}
