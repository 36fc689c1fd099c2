package discordtest_test

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// TestDiscordErrors checks that the stand-in refuses what Discord refuses,
// with Discord's status and JSON error code, as discordgo sees them.
func TestDiscordErrors(t *testing.T) {
	t.Parallel()
	clock := discordtest.NewManualClock(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	srv, b, alice, bob := twoPlayers(t, discordtest.WithClock(clock))
	content := "edited"

	t.Run("answer after 3 s is 10062 Unknown interaction", func(t *testing.T) {
		_, in := challenge(t, srv, b, alice.ID, bob.ID)
		clock.Advance(3*time.Second + time.Millisecond)
		err := b.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		restError(t, err, 404, discordtest.CodeUnknownInteraction)
	})
	t.Run("answer just within 3 s is accepted", func(t *testing.T) {
		_, in := challenge(t, srv, b, alice.ID, bob.ID)
		clock.Advance(3 * time.Second)
		reply(t, b, in, "just in time")
	})
	t.Run("a longer answer deadline for tests on the system clock", func(t *testing.T) {
		clock := discordtest.NewManualClock(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
		srv, b, alice, bob := twoPlayers(t, discordtest.WithClock(clock), discordtest.WithAnswerDeadline(time.Minute))
		_, in := challenge(t, srv, b, alice.ID, bob.ID)
		clock.Advance(time.Minute)
		reply(t, b, in, "within the minute")
		_, in = challenge(t, srv, b, alice.ID, bob.ID)
		clock.Advance(time.Minute + time.Millisecond)
		err := b.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		restError(t, err, 404, discordtest.CodeUnknownInteraction)
	})
	t.Run("second answer is 40060 already acknowledged", func(t *testing.T) {
		_, in := challenge(t, srv, b, alice.ID, bob.ID)
		reply(t, b, in, "first")
		err := b.InteractionRespond(in, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "second"},
		})
		restError(t, err, 400, discordtest.CodeAlreadyAcknowledged)
	})
	t.Run("webhook token older than 15 min is 50027", func(t *testing.T) {
		_, in := challenge(t, srv, b, alice.ID, bob.ID)
		reply(t, b, in, "first")
		clock.Advance(14 * time.Minute)
		if _, err := b.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &content}); err != nil {
			t.Fatalf("edit within 15 min: %v", err)
		}
		clock.Advance(time.Minute + time.Second)
		_, err := b.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &content})
		restError(t, err, 401, discordtest.CodeInvalidWebhookToken)
		_, err = b.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "late"})
		restError(t, err, 401, discordtest.CodeInvalidWebhookToken)
	})
	t.Run("unknown messages are 10008", func(t *testing.T) {
		_, in := challenge(t, srv, b, alice.ID, bob.ID)
		// @original does not exist before the interaction is answered.
		_, err := b.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &content})
		restError(t, err, 404, discordtest.CodeUnknownMessage)
		reply(t, b, in, "first")
		_, err = b.FollowupMessageEdit(in, "1234", &discordgo.WebhookEdit{Content: &content})
		restError(t, err, 404, discordtest.CodeUnknownMessage)
		_, err = b.ChannelMessageEdit(srv.ChannelID(), "1234", content)
		restError(t, err, 404, discordtest.CodeUnknownMessage)
		err = b.ChannelMessageDelete(srv.ChannelID(), "1234")
		restError(t, err, 404, discordtest.CodeUnknownMessage)
		_, err = b.ChannelMessage(srv.ChannelID(), "1234")
		restError(t, err, 404, discordtest.CodeUnknownMessage)
	})
	t.Run("unknown channel is 10003", func(t *testing.T) {
		_, err := b.ChannelMessageSend("1234", "hello")
		restError(t, err, 404, discordtest.CodeUnknownChannel)
	})
	t.Run("empty message is 50006", func(t *testing.T) {
		_, in := challenge(t, srv, b, alice.ID, bob.ID)
		err := b.InteractionRespond(in, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{},
		})
		restError(t, err, 400, discordtest.CodeEmptyMessage)
	})
	t.Run("wrong response type is refused", func(t *testing.T) {
		_, in := challenge(t, srv, b, alice.ID, bob.ID)
		err := b.InteractionRespond(in, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: "no message to update"},
		})
		restError(t, err, 400, discordtest.CodeInvalidFormBody)
	})
}

// TestAnsweredTellsTheFirstAnswersFate checks Interaction.Answered: it
// returns for an accepted answer and for one refused as late, each with
// when it arrived by the system clock (the server's clock is a manual
// one that the test moved by minutes), and keeps the first answer's fate
// when a second one is refused.
func TestAnsweredTellsTheFirstAnswersFate(t *testing.T) {
	t.Parallel()
	clock := discordtest.NewManualClock(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	srv, b, alice, bob := twoPlayers(t, discordtest.WithClock(clock))
	for _, late := range []bool{false, true} {
		ix, in := challenge(t, srv, b, alice.ID, bob.ID)
		if late {
			clock.Advance(5 * time.Minute)
		}
		before := time.Now()
		err := b.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		after := time.Now()
		if late {
			restError(t, err, 404, discordtest.CodeUnknownInteraction)
		} else if err != nil {
			t.Fatalf("answer in time: %v", err)
		}
		// A second answer is refused either way; the first one's fate stays.
		_ = b.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		a, err := ix.Answered(ctx(t))
		if err != nil {
			t.Fatalf("late %v: %v", late, err)
		}
		if a.Accepted == late {
			t.Errorf("late %v: Accepted = %v", late, a.Accepted)
		}
		if a.At.Before(before) || a.At.After(after) {
			t.Errorf("late %v: answered at %v, want within the call's [%v, %v]", late, a.At, before, after)
		}
	}
}
