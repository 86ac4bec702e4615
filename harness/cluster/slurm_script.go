package cluster

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/template"

	"github.com/grue-lab/grue/internal/atomicfile"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// sbatchScript is the batch script: one array task a shard. It is parsed
// on first use, not at the start of every grue command.
//
// The template writes no value unchecked: NewSlurmJob refused every value
// with a control character, so none can end a line; each #SBATCH value
// is quoted for sbatch (sb) and each word of the command for bash (q).
var sbatchScript = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("sbatch").Funcs(template.FuncMap{"q": shellQuote, "sb": sbatchQuote}).Parse(sbatchText))
})

const sbatchText = `#!/bin/bash
# grue experiment {{.Name}} as a Slurm job array: task I plays shard I of
# {{.Shards}} into {{.Dir}}/shards/, its log in {{.Dir}}/slurm/.
# Written by grue exp slurm{{if .Resume}} --resume: only the incomplete shards{{end}}.
#
#SBATCH --job-name={{sb (print "grue-" .Name)}}
#SBATCH --array={{.Array}}
#SBATCH --output={{sb (print .Dir "/slurm/%A_%a.out")}}
#SBATCH --cpus-per-task={{.CPUs}}
{{- if .Partition}}
#SBATCH --partition={{sb .Partition}}{{end}}
{{- if .Time}}
#SBATCH --time={{sb .Time}}{{end}}
{{- if .Mem}}
#SBATCH --mem={{sb .Mem}}{{end}}
{{- if .Gres}}
#SBATCH --gres={{sb .Gres}}{{end}}
#SBATCH --signal=B:TERM@60
set -euo pipefail

# The model endpoint, key and story folder come from the environment of
# sbatch (Slurm passes it on): OPENAI_BASE_URL, GRUE_MODEL, GRUE_GAMES...
#
# --resume: a task that is requeued, or resubmitted, plays only the
# episodes its shard lacks; a shard that never started starts.
exec {{q .Grue}} exp run {{q .Config}} \
  --out {{q .Dir}} \
  --shard "${SLURM_ARRAY_TASK_ID}/{{.Shards}}" \
  --resume{{if .Parallel}} \
  --parallel {{.Parallel}}{{end}} \
  --quiet
`

// Script is the job's sbatch script.
func (j *SlurmJob) Script() ([]byte, error) {
	var b bytes.Buffer
	if err := sbatchScript().Execute(&b, j); err != nil {
		return nil, fmt.Errorf("slurm script: %w", err)
	}
	return b.Bytes(), nil
}

// WriteScript writes the job's script into the run directory's SlurmDir
// folder, as submit-<k>.sbatch, k counting the submissions, and returns
// its path.
func (j *SlurmJob) WriteScript() (string, error) {
	b, err := j.Script()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(j.Dir, SlurmDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("slurm script: %w", err)
	}
	for k := 1; ; k++ {
		path := filepath.Join(dir, fmt.Sprintf("submit-%d.sbatch", k))
		if _, err := os.Lstat(path); err == nil {
			continue
		}
		if err := atomicfile.Write(path, b, 0o755); err != nil {
			return "", fmt.Errorf("slurm script: %w", err)
		}
		return path, nil
	}
}

// plainWord is a word that bash and sbatch both read as itself.
var plainWord = lazyregexp.New(`^[A-Za-z0-9_./:=@%+,-]+$`)

// shellQuote quotes s as one word for bash when it needs it.
func shellQuote(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// sbatchQuote quotes s as one argument of an #SBATCH line when it needs
// it: sbatch reads such a line as words split at spaces, with quotes
// grouping and a backslash escaping the next character, and an unquoted
// '#' starting a comment. s holds no newline (NewSlurmJob checked).
func sbatchQuote(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
