package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/atomicfile"
)

// The TALES format is what benchmark.py of microsoft/tale-suite writes for
// each game an agent plays (github.com/microsoft/tale-suite, benchmark.py,
// evaluate()): under <log-dir>/tales_<agent>/<env>/, a file
// a<admissible>_s<seed>_steps<max>.jsonl of the rollout, one row a step
// written by pandas' DataFrame.to_json(orient="records", lines=True)
// with the columns "Step", "Score", "Max Score", "Normalized Score",
// "Moves", "Observation" (the text before the action), "Action",
// "Feedback" (the game's answer), "Prompt", "Response", "Thinking",
// "Token Usage", "Prompt Tokens", "Response Tokens" and "Thinking
// Tokens"; and next to it a<...>.json, the summary (json.dump with
// sort_keys): status, env_name, env_params, nb_steps, nb_moves,
// nb_invalid_actions, nb_losts, nb_wins, nb_resets, highscore, max_score,
// norm_score, duration (seconds) and the "total/..." and "final/..."
// figures it logs to Weights & Biases. grue's agent is the variant, the
// env the game, and admissible commands are never given (a0).

// talesRow is one step of a TALES rollout file, its columns in
// benchmark.py's order.
type talesRow struct {
	Step            int           `json:"Step"`
	Score           int           `json:"Score"`
	MaxScore        int           `json:"Max Score"`
	NormalizedScore *float64      `json:"Normalized Score"`
	Moves           int           `json:"Moves"`
	Observation     string        `json:"Observation"`
	Action          string        `json:"Action"`
	Feedback        string        `json:"Feedback"`
	Prompt          []llm.Message `json:"Prompt"`
	Response        *string       `json:"Response"`
	Thinking        *string       `json:"Thinking"`
	TokenUsage      int           `json:"Token Usage"`
	PromptTokens    int           `json:"Prompt Tokens"`
	ResponseTokens  int           `json:"Response Tokens"`
	ThinkingTokens  int           `json:"Thinking Tokens"`
}

// writeTALES writes each episode's rollout and summary.
func writeTALES(r *Run, out string) ([]string, error) {
	var files []string
	maxSteps := r.maxSteps()
	for _, ep := range r.Episodes {
		rec := ep.Record
		params := fmt.Sprintf("a0_s%d_steps%d", rec.Seed, maxSteps)
		dir := filepath.Join(out, "tales_"+fileName(rec.Variant), gameName(rec.Game))
		rows := talesRows(ep)
		var b bytes.Buffer
		for _, row := range rows {
			line, err := json.Marshal(row)
			if err != nil {
				return files, err
			}
			b.Write(line)
			b.WriteByte('\n')
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return files, err
		}
		rollout := filepath.Join(dir, params+".jsonl")
		if err := atomicfile.Write(rollout, b.Bytes(), 0o644); err != nil {
			return files, err
		}
		summary := filepath.Join(dir, params+".json")
		if err := writeJSON(summary, talesSummary(rec, params, rows)); err != nil {
			return files, err
		}
		files = append(files, rollout, summary)
	}
	return files, nil
}

// talesRows are the episode's steps as TALES rows; a step that failed
// (the model could not be reached) played nothing and has none.
func talesRows(ep Episode) []talesRow {
	rows := []talesRow{}
	prev := ep.opening()
	for _, s := range ep.steps() {
		if s.Error != "" {
			continue
		}
		max := s.MaxScore
		if max == 0 {
			max = ep.Record.MaxScore
		}
		row := talesRow{
			Step: s.Step, Score: s.Score, MaxScore: max, Moves: s.Moves,
			Observation: prev, Action: actionText(s), Feedback: s.Observation,
			Prompt: s.Prompt, TokenUsage: totalTokens(s.Usage),
			PromptTokens: s.Usage.PromptTokens, ResponseTokens: s.Usage.CompletionTokens,
			ThinkingTokens: s.Usage.ReasoningTokens,
		}
		if max > 0 {
			n := float64(s.Score) / float64(max)
			row.NormalizedScore = &n
		}
		if s.Reply != nil {
			row.Response = &s.Reply.Content
			if s.Reply.Reasoning != "" {
				row.Thinking = &s.Reply.Reasoning
			}
		}
		rows = append(rows, row)
		prev = s.Observation
	}
	return rows
}

// totalTokens is u's total, or its parts' sum when the server sent none.
func totalTokens(u llm.Usage) int {
	return max(u.TotalTokens, u.PromptTokens+u.CompletionTokens)
}

// talesSummary is the summary benchmark.py writes next to a rollout.
func talesSummary(rec harness.EpisodeRecord, params string, rows []talesRow) map[string]any {
	status := "finished"
	if rec.Failed() {
		status = "failed"
	}
	high := 0
	var tokens, prompt, response, thinking int
	for _, row := range rows {
		high = max(high, row.Score)
		tokens += row.TokenUsage
		prompt += row.PromptTokens
		response += row.ResponseTokens
		thinking += row.ThinkingTokens
	}
	var norm any // null, as pandas writes NaN, for a game of no known maximum
	if rec.MaxScore > 0 {
		norm = float64(high) / float64(rec.MaxScore)
	}
	wins, losts := 0, 0
	if rec.Victory {
		wins = 1
	} else if rec.GameCompleted {
		losts = 1
	}
	seconds := rec.Duration().Seconds()
	return map[string]any{
		"status": status, "env_name": rec.Game, "env_params": params,
		"wandb_run_id": nil, "wandb_url": nil,
		"nb_steps": rec.Steps, "nb_moves": rec.Moves, "nb_invalid_actions": rec.InvalidActions,
		"nb_losts": losts, "nb_wins": wins, "nb_resets": 0,
		"highscore": high, "max_score": rec.MaxScore, "norm_score": norm, "duration": seconds,
		"total/Env. Steps": rec.Steps, "total/Game Moves": rec.Moves,
		"total/Invalid Actions": rec.InvalidActions, "total/Losts": losts, "total/Wins": wins,
		"total/Resets": 0, "total/Tokens": tokens, "total/Prompt Tokens": prompt,
		"total/Response Tokens": response, "total/Thinking Tokens": thinking,
		"final/Highscore": high, "final/Game Max Score": rec.MaxScore,
		"final/Normalized Score": norm, "final/Duration": seconds,
	}
}
