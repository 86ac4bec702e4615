package harness

import (
	"fmt"

	"github.com/goccy/go-yaml"

	"github.com/grue-lab/grue/internal/boundedfile"
)

// DecodeYAML decodes the YAML document data, read from file, into v as
// ParseConfig decodes an experiment config: data is refused past
// MaxConfigBytes, MaxConfigDepth or MaxConfigNodes, and unknown fields,
// fields given twice and values of the wrong type are errors. Every error
// is a *FieldError naming file, line, column and field; an unknown
// field's says fields (where the fields are listed). Other YAML files of
// grue's (coding tasks, package eval) are read with it.
func DecodeYAML(data []byte, file string, v any, fields string) error {
	if len(data) > MaxConfigBytes {
		return &FieldError{File: file, Msg: fmt.Sprintf("larger than the limit of %s", boundedfile.FormatSize(MaxConfigBytes))}
	}
	if err := checkDocument(data, file); err != nil {
		return err
	}
	if err := yaml.UnmarshalWithOptions(data, v, yaml.Strict()); err != nil {
		return yamlError(err, data, file, fields)
	}
	return nil
}
