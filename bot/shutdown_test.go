package bot_test

import (
	"strings"
	"testing"
)

// TestStoppingLogsNoReconnection: closing the gateway at shutdown is no
// disconnection to recover from. Before, discordgo's Disconnect event,
// handled in a goroutine of its own, logged "gateway disconnected;
// reconnecting" after "bot stopped"; now Run waits for it, which says the
// gateway closed, before it logs that the bot stopped.
func TestStoppingLogsNoReconnection(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.stop()
	logs := h.logs.String()
	closed, stopped := strings.Index(logs, "gateway closed"), strings.Index(logs, "bot stopped")
	if closed < 0 || stopped < 0 || closed > stopped {
		t.Errorf("\"gateway closed\" at %d, \"bot stopped\" at %d in the logs; want both, the gateway first", closed, stopped)
	}
	if strings.Contains(logs, "reconnecting") {
		t.Error("the logs say the gateway is reconnecting at shutdown")
	}
}
