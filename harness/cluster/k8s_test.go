package cluster

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/grue-lab/grue/harness"
)

// documents decodes every YAML document of a stream, as kubectl apply -f
// - reads them.
func documents(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var docs []map[string]any
	for {
		var d map[string]any
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("the manifests do not decode: %v\n%s", err, b)
		}
		docs = append(docs, d)
	}
}

// at is the value at a slashed path of a decoded document: map keys and
// sequence indexes.
func at(t *testing.T, v any, p string) any {
	t.Helper()
	for _, k := range strings.Split(p, "/") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				t.Fatalf("%s: no %q", p, k)
			}
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i >= len(x) {
				t.Fatalf("%s: no item %q in %d", p, k, len(x))
			}
			v = x[i]
		default:
			t.Fatalf("%s: %q of a %T", p, k, v)
		}
	}
	return v
}

// The manifests are those grue wrote with Kubernetes' own API types
// (k8s.io/api and sigs.k8s.io/yaml, testdata/k8s/old-*.yaml, made by
// grue exp k8s before it wrote plain data): the same objects with the
// same fields and values, the empty status aside, for the flags that set
// every field and for the fewest flags.
func TestKubernetesManifestsAsBefore(t *testing.T) {
	cfg := filepath.Join("testdata", "k8s", "ab.yaml")
	for _, c := range []struct {
		golden string
		o      KubernetesOptions
	}{
		{"old-full.yaml", KubernetesOptions{Shards: 8, Image: "ghcr.io/grue-lab/grue:v1", PVC: "grue-runs", Parallelism: 4,
			Memory: "2Gi", Secret: "model-endpoint", Namespace: "research", BackoffLimitPerIndex: 2}},
		{"old-min.yaml", KubernetesOptions{Shards: 2, Image: "img", PVC: "claim", BackoffLimitPerIndex: 2}},
	} {
		got, err := KubernetesManifests(cfg, c.o)
		if err != nil {
			t.Fatal(err)
		}
		old, err := os.ReadFile(filepath.Join("testdata", "k8s", c.golden))
		if err != nil {
			t.Fatal(err)
		}
		want := documents(t, old)
		delete(want[1], "status") // status: {}, which the API server ignores
		if g := documents(t, got); !reflect.DeepEqual(g, want) {
			t.Errorf("%s: the manifests differ from before:\n%s\nwant\n%s", c.golden, got, old)
		}
	}
}

// A ConfigMap and an Indexed Job that say what a run needs: one
// completion a shard, each index retried on its own, the config (and its
// prompt file) mounted where the pod reads it, the claim at /data, and
// the shard count beside JOB_COMPLETION_INDEX, from which grue exp run in
// the pod takes its shard.
func TestKubernetesManifests(t *testing.T) {
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
	b, err := KubernetesManifests(cfgPath, KubernetesOptions{Shards: 8, Image: "ghcr.io/grue-lab/grue:v1", PVC: "grue-runs",
		Parallelism: 4, Memory: "2Gi", Secret: "model-endpoint", BackoffLimitPerIndex: 2})
	if err != nil {
		t.Fatal(err)
	}
	docs := documents(t, b)
	if len(docs) != 2 {
		t.Fatalf("%d YAML documents, want a ConfigMap and a Job:\n%s", len(docs), b)
	}
	cm, job := docs[0], docs[1]
	if cm["apiVersion"] != "v1" || cm["kind"] != "ConfigMap" || job["apiVersion"] != "batch/v1" || job["kind"] != "Job" {
		t.Errorf("kinds %v %v, %v %v", cm["apiVersion"], cm["kind"], job["apiVersion"], job["kind"])
	}
	if at(t, cm, "metadata/name") != "grue-prompt-ab" || at(t, job, "metadata/name") != "grue-prompt-ab" {
		t.Errorf("names %v %v, want grue-prompt-ab", at(t, cm, "metadata/name"), at(t, job, "metadata/name"))
	}
	if at(t, cm, "data/config.yaml") != config {
		t.Errorf("the ConfigMap's config:\n%s", at(t, cm, "data/config.yaml"))
	}
	num := func(p string) any {
		switch n := at(t, job, p).(type) {
		case uint64:
			return int(n)
		case int64:
			return int(n)
		default:
			return n
		}
	}
	if at(t, job, "spec/completionMode") != "Indexed" || num("spec/completions") != 8 || num("spec/parallelism") != 4 || num("spec/backoffLimitPerIndex") != 2 {
		t.Errorf("job spec: %v", at(t, job, "spec"))
	}
	// backoffLimitPerIndex needs restartPolicy Never.
	if at(t, job, "spec/template/spec/restartPolicy") != "Never" || len(at(t, job, "spec/template/spec/containers").([]any)) != 1 {
		t.Fatalf("pod: %v", at(t, job, "spec/template/spec"))
	}
	c := at(t, job, "spec/template/spec/containers/0").(map[string]any)
	var args []string
	for _, a := range at(t, c, "args").([]any) {
		args = append(args, a.(string))
	}
	if c["image"] != "ghcr.io/grue-lab/grue:v1" || strings.Join(args, " ") != "exp run /etc/grue/config.yaml --out /data/runs/Prompt AB --resume --quiet" {
		t.Errorf("container %v %q", c["image"], args)
	}
	if at(t, c, "resources/requests/cpu") != "3" || at(t, c, "resources/limits/memory") != "2Gi" || at(t, c, "resources/requests/memory") != "2Gi" {
		t.Errorf("resources %v", c["resources"])
	}
	if at(t, c, "envFrom/0/secretRef/name") != "model-endpoint" {
		t.Errorf("envFrom %v", c["envFrom"])
	}
	env := map[string]string{"JOB_COMPLETION_INDEX": "5"} // as Kubernetes adds it to the pod of index 5
	for _, e := range at(t, c, "env").([]any) {
		e := e.(map[string]any)
		env[e["name"].(string)] = e["value"].(string)
	}
	sh, ok, err := harness.ShardFromEnv(func(k string) string { return env[k] })
	if err != nil || !ok || sh != (harness.Shard{Index: 5, Count: 8}) {
		t.Errorf("the pod of index 5 plays shard %v (%v, %v), want 5/8", sh, ok, err)
	}
	if env["GRUE_GAMES"] != "/data/games" {
		t.Errorf("GRUE_GAMES %q", env["GRUE_GAMES"])
	}
	mounts := map[string]string{}
	for _, m := range at(t, c, "volumeMounts").([]any) {
		m := m.(map[string]any)
		mounts[m["name"].(string)] = m["mountPath"].(string)
	}
	var claim string
	files := map[string]any{}
	for _, v := range at(t, job, "spec/template/spec/volumes").([]any) {
		v := v.(map[string]any)
		name := v["name"].(string)
		switch {
		case v["persistentVolumeClaim"] != nil && mounts[name] == "/data":
			claim = at(t, v, "persistentVolumeClaim/claimName").(string)
		case v["configMap"] != nil && mounts[name] == "/etc/grue":
			if at(t, v, "configMap/name") != "grue-prompt-ab" {
				t.Errorf("the config volume is ConfigMap %v", at(t, v, "configMap/name"))
			}
			for _, it := range at(t, v, "configMap/items").([]any) {
				it := it.(map[string]any)
				files[it["path"].(string)] = at(t, cm, "data/"+it["key"].(string))
			}
		}
	}
	if claim != "grue-runs" {
		t.Errorf("claim %q at /data, want grue-runs", claim)
	}
	if files["config.yaml"] != config || files["prompts/terse.txt"] != "Be terse." {
		t.Errorf("files under /etc/grue: %v", files)
	}
}

// Options that cannot be used are refused with an *OptionError naming
// the flag and the value, and nothing is written.
func TestKubernetesManifestsRefuse(t *testing.T) {
	cfg := filepath.Join("testdata", "k8s", "ab.yaml")
	ok := KubernetesOptions{Shards: 2, Image: "img", PVC: "claim"}
	for _, c := range []struct {
		option string
		change func(*KubernetesOptions)
	}{
		{"--shards", func(o *KubernetesOptions) { o.Shards = 0 }},
		{"--image", func(o *KubernetesOptions) { o.Image = "" }},
		{"--image", func(o *KubernetesOptions) { o.Image = "img\n---\nkind: Pod" }},
		{"--image", func(o *KubernetesOptions) { o.Image = "img latest" }},
		{"--pvc", func(o *KubernetesOptions) { o.PVC = "" }},
		{"--pvc", func(o *KubernetesOptions) { o.PVC = "Claim_1" }},
		{"--pvc", func(o *KubernetesOptions) { o.PVC = "claim\nkind: Pod" }},
		{"--name", func(o *KubernetesOptions) { o.Name = "Not_A_Name" }},
		{"--name", func(o *KubernetesOptions) { o.Name = "x\n---\napiVersion: v1" }},
		{"--name", func(o *KubernetesOptions) { o.Name = strings.Repeat("a", 53) }},
		{"--namespace", func(o *KubernetesOptions) { o.Namespace = "kube system" }},
		{"--secret", func(o *KubernetesOptions) { o.Secret = "key: value" }},
		{"--out", func(o *KubernetesOptions) { o.Out = "/abs" }},
		{"--out", func(o *KubernetesOptions) { o.Out = "../up" }},
		{"--out", func(o *KubernetesOptions) { o.Out = "run\n- privileged" }},
		{"--cpus", func(o *KubernetesOptions) { o.CPUs = "two" }},
		{"--cpus", func(o *KubernetesOptions) { o.CPUs = "-1" }},
		{"--memory", func(o *KubernetesOptions) { o.Memory = "2Gi\nkind: Pod" }},
		{"--parallelism", func(o *KubernetesOptions) { o.Parallelism = -1 }},
		{"--backoff-limit-per-index", func(o *KubernetesOptions) { o.BackoffLimitPerIndex = -1 }},
	} {
		o := ok
		c.change(&o)
		b, err := KubernetesManifests(cfg, o)
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Option != c.option || !strings.Contains(err.Error(), c.option) {
			t.Errorf("%+v: %v (%q), want an OptionError for %s", o, err, b, c.option)
		}
	}
	for _, q := range []string{"1", "0.5", "500m", "2Gi", "1e3", "4G", ".5"} {
		o := ok
		o.CPUs, o.Memory = q, q
		if _, err := KubernetesManifests(cfg, o); err != nil {
			t.Errorf("quantity %q: %v", q, err)
		}
	}
}

// Issue 35, item 8: a config whose name holds a second YAML document (a
// privileged Pod) does not put it in the output. By default the name
// also makes the run directory, which is refused with the name in the
// error; given --out, the output is the ConfigMap and the Job alone, the
// name's text safe inside them.
func TestKubernetesManifestsNameInjection(t *testing.T) {
	dir := t.TempDir()
	name := "x\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: evil}\nspec: {containers: [{name: c, image: busybox, securityContext: {privileged: true}}]}\n#"
	config := "name: " + strconv.Quote(name) + "\nvariants:\n  - name: w\n    policy: walkthrough\ngames: [lantern]\n"
	cfgPath := filepath.Join(dir, "evil.yaml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	o := KubernetesOptions{Shards: 1, Image: "img", PVC: "claim"}
	b, err := KubernetesManifests(cfgPath, o)
	if err == nil || !strings.Contains(err.Error(), strconv.Quote("runs/"+name)) || !strings.Contains(err.Error(), "control character") {
		t.Errorf("the default --out from the name: %v\n%s", err, b)
	}
	o.Out = "runs/evil"
	b, err = KubernetesManifests(cfgPath, o)
	if err != nil {
		t.Fatal(err)
	}
	docs := documents(t, b)
	if len(docs) != 2 || docs[0]["kind"] != "ConfigMap" || docs[1]["kind"] != "Job" {
		t.Fatalf("%d documents, want a ConfigMap and a Job:\n%s", len(docs), b)
	}
	if got := at(t, docs[1], "metadata/name").(string); got != KubernetesName(name) || checkLabel("", got, MaxJobNameLength) != nil {
		t.Errorf("the Job's name %q", got)
	}
	if at(t, docs[0], "data/config.yaml") != config {
		t.Errorf("the config in the ConfigMap:\n%s", at(t, docs[0], "data/config.yaml"))
	}
	if bytes.Contains(b, []byte("\nkind: Pod")) {
		t.Errorf("a Pod at the top level of the output:\n%s", b)
	}
}

// A prompt file can hold anything: a document of its own, tabs, carriage
// returns, line separators. It reads back from the ConfigMap exactly,
// and the output is still two documents.
func TestKubernetesManifestsPromptText(t *testing.T) {
	dir := t.TempDir()
	prompt := "Be terse.\n---\napiVersion: v1\nkind: Pod\n  indented\r\n\tTab\u2028--- \u0085end \n \n"
	if err := os.WriteFile(filepath.Join(dir, "p.txt"), []byte(prompt), 0o644); err != nil {
		t.Fatal(err)
	}
	config := "name: p\nvariants:\n  - name: v\n    system_prompt_file: p.txt\ngames: [lantern]\n"
	cfgPath := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := KubernetesManifests(cfgPath, KubernetesOptions{Shards: 1, Image: "img", PVC: "claim"})
	if err != nil {
		t.Fatal(err)
	}
	docs := documents(t, b)
	if len(docs) != 2 || at(t, docs[0], "data/prompt-0") != prompt || at(t, docs[0], "data/config.yaml") != config {
		t.Errorf("%d documents; the prompt read back %q\n%s", len(docs), at(t, docs[0], "data/prompt-0"), b)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.txt"), []byte("\xff\xfe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := KubernetesManifests(cfgPath, KubernetesOptions{Shards: 1, Image: "img", PVC: "claim"}); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("a prompt file that is not text: %v", err)
	}
}
