package ops_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/ops"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

// bigGame returns a new game whose record takes about size bytes.
func bigGame(i, size int) *storage.Game {
	user := fmt.Sprintf("u%d", i)
	return &storage.Game{
		Kind: storage.Kind("tictactoe"), Status: storage.StatusActive,
		Players:  []storage.Player{{ID: storage.User(user), Name: user}, {ID: storage.AI("minimax")}},
		Position: strings.Repeat("x", size),
	}
}

// TestSlowBackupClientDoesNotStallWrites checks that a backup download
// holds no database transaction: a client that asks for a backup and then
// reads nothing must not hold up writes, not even one that grows the file
// (bbolt remaps it only when no read transaction is open).
func TestSlowBackupClientDoesNotStallWrites(t *testing.T) {
	ctx := context.Background()
	store, err := bolt.Open(filepath.Join(t.TempDir(), "gambit.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	// Far more than the socket buffers between server and client hold.
	const record = 256 << 10
	for i := range 48 {
		if err := store.CreateGame(ctx, bigGame(i, record), storage.Limits{}); err != nil {
			t.Fatal(err)
		}
	}

	srvCtx, stop := context.WithCancel(ctx)
	defer stop()
	addr, served := startServe(t, srvCtx, ops.Handler(ops.NewMetrics(), nil, ops.Backup{Snapshot: store.Snapshot, Token: token}))

	// A client that asks for a backup, reads the answer's head and then
	// nothing more.
	conn, err := net.DialTimeout("tcp", addr.String(), hang(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.(*net.TCPConn).SetReadBuffer(4096); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodGet, "http://"+addr.String()+"/backup", nil)
	if err != nil {
		t.Fatal(err)
	}
	bearer(token)(req)
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /backup: status %d", resp.StatusCode)
	}

	// Write as much again as the database holds: the file must grow past
	// its memory map, which bbolt remaps only without open readers.
	fi, err := os.Stat(store.Path())
	if err != nil {
		t.Fatal(err)
	}
	wrote := make(chan error, 1)
	go func() {
		for i := range int(fi.Size())/record + 1 {
			if err := store.CreateGame(ctx, bigGame(1000+i, record), storage.Limits{}); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}()
	select {
	case err := <-wrote:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(hang(t)):
		t.Errorf("CreateGame still waiting at the test's deadline after a backup client stopped reading")
		conn.Close() // lets the backup, and then the writes, go on
		<-wrote
	}
	conn.Close()
	stop()
	if err := stopped(t, served, hang(t)); err != nil {
		t.Errorf("Serve: %v", err)
	}
}
