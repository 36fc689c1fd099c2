package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListIsCurrent checks that THIRD_PARTY_LICENSES.md lists the modules the
// gambit binary links now, with their versions and licences: a new or
// upgraded dependency fails here until the list is regenerated.
func TestListIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	want, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, out))
	if err != nil {
		t.Fatalf("%v: run go run ./internal/licenses", err)
	}
	if string(got) != string(want) {
		gotLines, wantLines := lineSet(string(got)), lineSet(string(want))
		for l := range wantLines {
			if !gotLines[l] {
				t.Errorf("%s lacks: %s", out, l)
			}
		}
		for l := range gotLines {
			if !wantLines[l] {
				t.Errorf("%s has, and should not: %s", out, l)
			}
		}
		t.Errorf("%s is not current: run go run ./internal/licenses", out)
	}
}

func lineSet(text string) map[string]bool {
	set := make(map[string]bool)
	for _, l := range strings.Split(text, "\n") {
		set[l] = true
	}
	return set
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Apache License\n   Version 2.0, January 2004", "Apache-2.0"},
		{"Permission is hereby granted, free of charge, to any person ... THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT", "MIT"},
		{"Redistribution and use in source and binary forms, with or without\nmodification ... Redistributions in binary form must reproduce ... Neither the name of Google Inc.", "BSD-3-Clause"},
		{"Redistribution and use in source and binary forms ... Redistributions in binary form must reproduce the above", "BSD-2-Clause"},
		{"Mozilla Public License Version 2.0", "MPL-2.0"},
		{"All rights reserved. Ask us.", ""},
	} {
		if got := classify(tc.text); got != tc.want {
			t.Errorf("classify(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
