package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot"
)

func TestShardSettings(t *testing.T) {
	for _, tc := range []struct {
		shards, ids string
		count       int
		want        []int
		err         string
	}{
		{"", "", 0, nil, ""},
		{"4", "", 4, nil, ""},
		{"auto", "", bot.ShardsAuto, nil, ""},
		{"4", "0-1", 4, []int{0, 1}, ""},
		{"8", "0,2, 5-7,2", 8, []int{0, 2, 5, 6, 7}, ""},
		{"auto", "3", bot.ShardsAuto, []int{3}, ""},
		{"4", "auto", 4, nil, ""},
		{"0", "", 0, nil, "GAMBIT_SHARDS"},
		{"many", "", 0, nil, "GAMBIT_SHARDS"},
		{"4", "4", 4, nil, "not below GAMBIT_SHARDS (4)"},
		{"", "1", 0, nil, "not below GAMBIT_SHARDS (1)"},
		{"4", "3-1", 4, nil, "GAMBIT_SHARD_IDS"},
		{"4", "a", 4, nil, "GAMBIT_SHARD_IDS"},
		{"4", "0,", 4, nil, "GAMBIT_SHARD_IDS"},
	} {
		t.Setenv("GAMBIT_SHARDS", tc.shards)
		t.Setenv("GAMBIT_SHARD_IDS", tc.ids)
		var cfg bot.Config
		err := shardSettings(&cfg)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("GAMBIT_SHARDS=%q GAMBIT_SHARD_IDS=%q: error %v, want one naming %s", tc.shards, tc.ids, err, tc.err)
			}
			continue
		}
		if err != nil || cfg.Shards.Count != tc.count || !slices.Equal(cfg.Shards.IDs, tc.want) || cfg.Shards.Auto != (tc.ids == "auto") {
			t.Errorf("GAMBIT_SHARDS=%q GAMBIT_SHARD_IDS=%q: count %d ids %v err %v; want %d %v", tc.shards, tc.ids, cfg.Shards.Count, cfg.Shards.IDs, err, tc.count, tc.want)
		}
	}
}
