package llm

// DroppableParams are the request parameters a client leaves out for an
// endpoint that refuses them: learned from the endpoint's 400 answer
// (the call is retried at once without it, and it is not sent again for
// that model for the client's lifetime), or given up front in
// Config.DropParams. A refused max_tokens is sent as
// max_completion_tokens instead, and the other way round.
var DroppableParams = []string{
	"temperature", "seed", "max_tokens", "max_completion_tokens",
	"response_format", "stream_options", "tool_choice", "reasoning_effort",
}

// Dropped is a parameter a client leaves out of its requests to a model,
// and why: "drop_params" (configured), "a reasoning model by its name",
// "reasoning_model", or "refused: " and the endpoint's 400 (learned).
type Dropped struct {
	Model string `json:"model"`
	Param string `json:"param"`
	Why   string `json:"why"`
}
