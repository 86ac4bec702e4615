package web

import (
	"embed"
	"io/fs"
	"net/http"
)

// assets are the page: plain HTML, CSS and JavaScript, no build step and
// nothing fetched from elsewhere, so it works offline.
//
//go:embed assets
var assets embed.FS

// assetHandler serves the page's files at /, with a Content-Security-Policy
// that lets the page load nothing but its own files and call nothing but
// this server.
func assetHandler() http.Handler {
	sub, _ := fs.Sub(assets, "assets") // the folder is embedded: it is there
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "", "%s %s: the page is read with GET", r.Method, r.URL.Path)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		files.ServeHTTP(w, r)
	})
}
