package openai

import (
	"errors"
	"fmt"
	"html"
	"regexp"
	"strings"

	oai "github.com/sashabaranov/go-openai"
)

// maxSaid is the most characters of a server's words an error quotes.
const maxSaid = 160

var (
	htmlTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	htmlHead  = regexp.MustCompile(`(?is)<h1[^>]*>(.*?)</h1>`)
	htmlDrop  = regexp.MustCompile(`(?is)<(script|style|head)[^>]*>.*?</(script|style|head)>`)
	htmlTag   = regexp.MustCompile(`(?s)<[^>]*>`)
)

// said is what a server's answer body says, in one short line: an HTML
// page (a proxy's or a web server's error page) by its title, or its
// first heading, or its text with the markup stripped; any other body as
// it is, on one line and shortened to maxSaid characters.
func said(body string) string {
	s := strings.TrimSpace(body)
	if isHTML(s) {
		text := ""
		for _, re := range []*regexp.Regexp{htmlTitle, htmlHead} {
			if m := re.FindStringSubmatch(s); m != nil {
				if t := htmlText(m[1]); t != "" {
					text = t
					break
				}
			}
		}
		if text == "" {
			text = htmlText(htmlDrop.ReplaceAllString(s, " "))
		}
		if text == "" {
			text = "an HTML page"
		}
		s = "HTML page: " + text
	}
	return shorten(oneLine(s), maxSaid)
}

// isHTML reports whether s looks like an HTML document or fragment.
func isHTML(s string) bool {
	l := strings.ToLower(s)
	if len(l) > 512 {
		l = l[:512]
	}
	return strings.HasPrefix(l, "<!doctype html") || strings.HasPrefix(l, "<html") ||
		strings.Contains(l, "<html") || strings.Contains(l, "<head") || strings.Contains(l, "<body") ||
		strings.Contains(l, "<title")
}

// htmlText is s with the markup removed and the entities decoded.
func htmlText(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(htmlTag.ReplaceAllString(s, " "))), " ")
}

// shorten cuts s to at most n runes, marking the cut with "...".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "..."
}

// serverSaid describes a failed request in one readable line: the HTTP
// status and what the body said (said), or the error itself.
func serverSaid(err error) string {
	var reqErr *oai.RequestError
	var apiErr *oai.APIError
	switch {
	case errors.As(err, &reqErr):
		status := reqErr.HTTPStatus
		if status == "" {
			status = fmt.Sprint(reqErr.HTTPStatusCode)
		}
		if body := said(string(reqErr.Body)); body != "(no message)" {
			return fmt.Sprintf("HTTP %s: %s", status, body)
		}
		return "HTTP " + status
	case errors.As(err, &apiErr):
		status := apiErr.HTTPStatus
		if status == "" {
			status = fmt.Sprint(apiErr.HTTPStatusCode)
		}
		return fmt.Sprintf("HTTP %s: %s", status, said(apiErr.Message))
	}
	return said(err.Error())
}
