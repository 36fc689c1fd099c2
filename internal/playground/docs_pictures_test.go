package playground_test

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// docsPictures are the docs' pictures the browser tests write with
// GAMBIT_UPDATE_DOCS=1 (updateDocs), by the test that writes each.
var docsPictures = map[string]string{
	"playground.png": "TestBrowserAdjacencyAgainstAnAI",
	"daily.png":      "TestBrowserDailyPuzzle",
	"review.png":     "TestBrowserReviewAfterAGame",
	"tournament.png": "TestBrowserSwissToThePodium",
}

// TestDocsPicturesAreScreenshots checks, without a browser, that each
// docs picture a browser test writes is committed whole: a PNG that
// decodes, of the size updateDocs takes it at. A picture that fails is
// written again by its test (GAMBIT_UPDATE_DOCS=1 go test -run TEST
// ./internal/playground).
func TestDocsPicturesAreScreenshots(t *testing.T) {
	t.Parallel()
	for name, test := range docsPictures {
		data, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
		if err != nil {
			t.Errorf("docs/%s (written by %s): %v", name, test, err)
			continue
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Errorf("docs/%s (written by %s) is no whole PNG: %v", name, test, err)
			continue
		}
		if b := img.Bounds(); b.Dx() != docsWidth || b.Dy() != docsHeight {
			t.Errorf("docs/%s (written by %s) is %d×%d, want the screenshots' %d×%d", name, test, b.Dx(), b.Dy(), docsWidth, docsHeight)
		}
	}
}
