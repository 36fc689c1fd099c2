package archtest

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"strings"
)

// walkTree calls dir for every directory below root and file for every
// non-test Go file, skipping hidden directories and testdata; a file's
// rel is its path from root, slash-separated. Either may be nil.
func walkTree(root string, dir func(path, rel string) error, file func(path, rel string) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			if dir != nil {
				return dir(path, rel)
			}
			return nil
		}
		if file == nil || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		return file(path, rel)
	})
}

// walkPackages calls f with every package below root, as go/build reads
// it (non-test files), and its directory relative to root.
func walkPackages(root string, f func(p *build.Package, rel string) error) error {
	return walkTree(root, func(path, rel string) error {
		p, err := build.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		return f(p, rel)
	}, nil)
}
