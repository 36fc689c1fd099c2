package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/joho/godotenv"
)

// loadDotEnv adds the settings of the .env file at path to the
// environment. Variables already set win, and a missing file is fine:
// .env is an optional convenience for development.
func loadDotEnv(path string) error {
	err := godotenv.Load(path)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return fmt.Errorf("read settings from %s: %w", path, err)
}
