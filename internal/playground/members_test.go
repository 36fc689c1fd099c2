package playground_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// membersState is GET /api/state's members and user commands.
type membersState struct {
	Members []struct {
		ID, Name       string
		NoManageServer bool `json:"no_manage_server"`
	}
	UserCommands []struct{ Name string } `json:"user_commands"`
}

// TestManageServerIsAMemberPermission: a new playground's bob lacks
// Manage Server and the bot refuses him /settings; given it through the
// API, he keeps it across a restart and the bot takes his settings.
func TestManageServerIsAMemberPermission(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "playground.db")
	url, stop := runPlayground(t, db)
	var st membersState
	api(t, "GET", url+"api/state", nil, &st)
	alice, bob := st.Members[0], st.Members[1]
	if alice.NoManageServer || !bob.NoManageServer {
		t.Fatalf("a new playground's members: %+v; want alice with Manage Server, bob without", st.Members)
	}
	if text := lastText(t, url, bob.ID, "settings"); !strings.Contains(text, "Manage Server") {
		t.Errorf("bob's /settings without Manage Server: %q", text)
	}
	if code := api(t, "POST", url+"api/permissions", map[string]any{"member": "nobody", "manage_server": true}, nil); code != 400 {
		t.Errorf("permissions of an unknown member: %d, want 400", code)
	}
	if code := api(t, "POST", url+"api/permissions", map[string]any{"member": bob.ID, "manage_server": true}, nil); code != 200 {
		t.Fatalf("giving bob Manage Server: %d", code)
	}
	stop()

	url, _ = runPlayground(t, db)
	var after membersState
	api(t, "GET", url+"api/state", nil, &after)
	if after.Members[1].NoManageServer {
		t.Errorf("bob lost Manage Server in the restart: %+v", after.Members)
	}
	if text := lastText(t, url, bob.ID, "settings"); strings.Contains(text, "Manage Server") {
		t.Errorf("bob's /settings with Manage Server: %q", text)
	}
}

// TestAUserCommandFromAMembersMenu runs "Challenge to a game" on bob as
// alice: the state lists it, and the bot answers alice with its game
// picker naming bob.
func TestAUserCommandFromAMembersMenu(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	var st membersState
	api(t, "GET", url+"api/state", nil, &st)
	if len(st.UserCommands) != 1 || st.UserCommands[0].Name != "Challenge to a game" {
		t.Fatalf("user commands in the state: %+v", st.UserCommands)
	}
	alice, bob := st.Members[0], st.Members[1]
	if code := api(t, "POST", url+"api/user-command", map[string]string{"member": alice.ID, "name": "Challenge to a game", "target": "nobody"}, nil); code != 400 {
		t.Errorf("a user command on nobody: %d, want 400", code)
	}
	if code := api(t, "POST", url+"api/user-command", map[string]string{"member": alice.ID, "name": "Challenge to a game", "target": bob.ID}, nil); code != 200 {
		t.Fatalf("Challenge to a game on bob: %d", code)
	}
	var seen []message
	api(t, "GET", url+"api/messages?member="+alice.ID, nil, &seen)
	if len(seen) == 0 || !strings.Contains(seen[len(seen)-1].text(), "<@"+bob.ID+">") {
		t.Fatalf("alice sees %+v; want the game picker for bob", seen)
	}
}
