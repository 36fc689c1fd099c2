package storage

import "testing"

func TestStreak(t *testing.T) {
	for _, tc := range []struct {
		solved []string
		want   int
	}{
		{nil, 0},
		{[]string{"2026-11-27"}, 1},
		{[]string{"2026-11-26"}, 1}, // today is not over: yesterday's streak lives on
		{[]string{"2026-11-25"}, 0},
		{[]string{"2026-11-27", "2026-11-26", "2026-11-25", "2026-11-23"}, 3},
		{[]string{"2026-11-26", "2026-11-25"}, 2},
		{[]string{"2026-11-28", "2026-11-27"}, 1}, // a day after today is left out
		{[]string{"2026-12-01", "2026-11-30", "2026-11-29"}, 0},
		{[]string{"2026-11-01", "2026-10-31", "2026-10-30"}, 0},
	} {
		if got := Streak(tc.solved, "2026-11-27"); got != tc.want {
			t.Errorf("Streak(%v) = %d, want %d", tc.solved, got, tc.want)
		}
	}
	if got := Streak([]string{"2026-03-01", "2026-02-28"}, "2026-03-01"); got != 2 {
		t.Errorf("a streak across a month's end: %d, want 2", got)
	}
	if Streak([]string{"2026-11-27"}, "today") != 0 {
		t.Error("a streak on a day that is no date")
	}
}

func TestValidDay(t *testing.T) {
	for day, want := range map[string]bool{"2026-11-27": true, "2026-02-30": false, "2026-1-2": false, "": false} {
		if ValidDay(day) != want {
			t.Errorf("ValidDay(%q) = %v", day, !want)
		}
	}
}
