package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/grue-lab/grue/harness"
)

// grue exp k8s prints a ConfigMap and an Indexed Job that decode, with no
// unknown field, into Kubernetes' own API types, and say what a run
// needs: one completion a shard, each index retried on its own, the
// config (and its prompt file) mounted where the pod reads it, the claim
// at /data, and the shard count beside JOB_COMPLETION_INDEX, from which
// grue exp run in the pod takes its shard.
func TestExpK8s(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prompts", "terse.txt"), []byte("Be terse."), 0o644); err != nil {
		t.Fatal(err)
	}
	config := `name: Prompt AB
variants:
  - name: walkthrough
    policy: walkthrough
  - name: terse
    system_prompt_file: prompts/terse.txt
games: [lantern, zork1]
trials: 10
parallel: 3
`
	cfgPath := filepath.Join(dir, "ab.yaml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := grueExp(t, "k8s", cfgPath, "--shards", "8", "--image", "ghcr.io/grue-lab/grue:v1", "--pvc", "grue-runs",
		"--parallelism", "4", "--memory", "2Gi", "--secret", "model-endpoint")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	docs := strings.Split(stdout, "\n---\n")
	if len(docs) != 2 {
		t.Fatalf("%d YAML documents, want a ConfigMap and a Job:\n%s", len(docs), stdout)
	}
	var cm corev1.ConfigMap
	if err := yaml.UnmarshalStrict([]byte(docs[0]), &cm); err != nil {
		t.Fatalf("the ConfigMap is not a v1 ConfigMap: %v\n%s", err, docs[0])
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict([]byte(docs[1]), &job); err != nil {
		t.Fatalf("the Job is not a batch/v1 Job: %v\n%s", err, docs[1])
	}
	if cm.Kind != "ConfigMap" || cm.APIVersion != "v1" || job.Kind != "Job" || job.APIVersion != "batch/v1" {
		t.Errorf("kinds %s %s, %s %s", cm.APIVersion, cm.Kind, job.APIVersion, job.Kind)
	}
	if cm.Name != "grue-prompt-ab" || job.Name != "grue-prompt-ab" {
		t.Errorf("names %q %q, want grue-prompt-ab", cm.Name, job.Name)
	}
	if cm.Data["config.yaml"] != config {
		t.Errorf("the ConfigMap's config:\n%s", cm.Data["config.yaml"])
	}
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion || *s.Completions != 8 || *s.Parallelism != 4 ||
		s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex != 2 {
		t.Errorf("job spec: mode %v completions %v parallelism %v backoffLimitPerIndex %v", s.CompletionMode, s.Completions, s.Parallelism, s.BackoffLimitPerIndex)
	}
	pod := s.Template.Spec
	// backoffLimitPerIndex needs restartPolicy Never.
	if pod.RestartPolicy != corev1.RestartPolicyNever || len(pod.Containers) != 1 {
		t.Fatalf("pod: restart %s, %d containers", pod.RestartPolicy, len(pod.Containers))
	}
	c := pod.Containers[0]
	if c.Image != "ghcr.io/grue-lab/grue:v1" || strings.Join(c.Args, " ") != "exp run /etc/grue/config.yaml --out /data/runs/Prompt AB --resume --quiet" {
		t.Errorf("container %s %q", c.Image, c.Args)
	}
	if c.Resources.Requests.Cpu().String() != "3" || c.Resources.Limits.Memory().String() != "2Gi" {
		t.Errorf("resources %v", c.Resources)
	}
	if len(c.EnvFrom) != 1 || c.EnvFrom[0].SecretRef == nil || c.EnvFrom[0].SecretRef.Name != "model-endpoint" {
		t.Errorf("envFrom %+v", c.EnvFrom)
	}
	env := map[string]string{"JOB_COMPLETION_INDEX": "5"} // as Kubernetes adds it to the pod of index 5
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	sh, ok, err := harness.ShardFromEnv(func(k string) string { return env[k] })
	if err != nil || !ok || sh != (harness.Shard{Index: 5, Count: 8}) {
		t.Errorf("the pod of index 5 plays shard %v (%v, %v), want 5/8", sh, ok, err)
	}
	if env["GRUE_GAMES"] != "/data/games" {
		t.Errorf("GRUE_GAMES %q", env["GRUE_GAMES"])
	}
	mounts := map[string]string{}
	for _, m := range c.VolumeMounts {
		mounts[m.Name] = m.MountPath
	}
	var claim string
	items := map[string]string{}
	for _, v := range pod.Volumes {
		switch {
		case v.PersistentVolumeClaim != nil && mounts[v.Name] == "/data":
			claim = v.PersistentVolumeClaim.ClaimName
		case v.ConfigMap != nil && mounts[v.Name] == "/etc/grue":
			if v.ConfigMap.Name != cm.Name {
				t.Errorf("the config volume is ConfigMap %s, not %s", v.ConfigMap.Name, cm.Name)
			}
			for _, it := range v.ConfigMap.Items {
				items[it.Path] = cm.Data[it.Key]
			}
		}
	}
	if claim != "grue-runs" {
		t.Errorf("claim %q at /data, want grue-runs", claim)
	}
	if items["config.yaml"] != config || items["prompts/terse.txt"] != "Be terse." {
		t.Errorf("files under /etc/grue: %v", items)
	}

	for _, bad := range [][]string{
		{"--image", "x", "--pvc", "y"},
		{"--shards", "2", "--pvc", "y"},
		{"--shards", "2", "--image", "x"},
		{"--shards", "2", "--image", "x", "--pvc", "y", "--out", "/abs"},
		{"--shards", "2", "--image", "x", "--pvc", "y", "--name", "Not_A_Name"},
	} {
		if _, stderr, code := grueExp(t, append([]string{"k8s", cfgPath}, bad...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage): %s", bad, code, stderr)
		}
	}
}
