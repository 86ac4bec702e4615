package cast

import (
	"html/template"
	"testing"
)

// grue's patch (../README.grue.md): html/template's string types cast to
// their strings as before, without the package naming them.
func TestToStringTemplateTypes(t *testing.T) {
	for _, v := range []any{template.HTML("<b>x</b>"), template.URL("<b>x</b>"), template.JS("<b>x</b>"),
		template.CSS("<b>x</b>"), template.HTMLAttr("<b>x</b>")} {
		if s, err := ToStringE(v); s != "<b>x</b>" || err != nil {
			t.Errorf("ToStringE(%T) = %q, %v; want its string", v, s, err)
		}
	}
	type other string
	if s, err := ToStringE(other("x")); err == nil {
		t.Errorf("ToStringE of another named string type = %q, want an error as before", s)
	}
	if s, err := ToStringE(template.Srcset("x")); err == nil {
		t.Errorf("ToStringE(template.Srcset) = %q, want an error as before (not among the five)", s)
	}
}
