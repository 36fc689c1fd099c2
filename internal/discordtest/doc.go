// Package discordtest is a local stand-in for Discord that speaks Discord's
// real protocol, so a bot built on github.com/bwmarrin/discordgo can be
// tested end to end without reaching the network.
//
// A [Server] listens on a random loopback port and serves both halves of the
// Discord API:
//
//   - the gateway: GET /api/v{9,10}/gateway and /gateway/bot return the URL
//     of a websocket that speaks the gateway protocol (HELLO, IDENTIFY and
//     READY, heartbeats, RESUME with replay of missed dispatches, INVALID
//     SESSION, RECONNECT and sequence-numbered dispatches), sharded when
//     asked ([WithShards]: each session IDENTIFYs a shard, is told of and
//     sent the events of its shard's guilds only, and identifies beyond
//     max_concurrency per 5 seconds are refused);
//   - the REST API the bot uses: application command registration,
//     interaction callbacks, the interaction webhook (@original and
//     follow-ups), channel messages and threads (threads.go: started
//     from a message or without one, their messages through the channel
//     routes).
//
// The server keeps a model of guilds, channels and messages (content,
// embeds, components, attachments, ephemeral visibility) so that a test can
// read what a user would see, and it enforces Discord's rules the way Discord
// does: an interaction answered after 3 seconds gets 10062 Unknown
// interaction, a second callback 40060, a webhook token older than 15
// minutes 50027, an unknown message 10008. The clock is injectable (see
// [ManualClock]) so those rules are tested without sleeping.
//
// It also enforces Discord's rate limits on its clock ([RateLimits],
// [DiscordRateLimits] by default): the global 50 requests per second (the
// interaction endpoints excepted), per-route buckets answered with the
// X-RateLimit-* headers (when given, see [DiscordRouteLimits]), 429s with retry_after, the ban (Cloudflare's 429)
// after too many invalid requests, and the gateway's session start limit
// (session_start_limit in GET /gateway/bot; an IDENTIFY beyond it resets
// the token). [Server.RateLimitStats] counts requests per route, 429s by
// scope and invalid requests, so a test can assert that a bot never met a
// global 429; [WithoutRateLimits] turns the limits off for load tests.
//
// Every JSON body the bot sends is validated against the request schema of
// Discord's official OpenAPI 3.1 description (embedded in the package, MIT
// licensed by Discord) for the request's method and path, and against the
// component rules the schema cannot express (at most five action rows,
// unique custom IDs, real emoji, ...). An invalid body is answered with
// 400 Invalid Form Body (code 50035), as Discord would, and recorded as a
// [Violation]; [Server.AssertNoViolations] fails a test that caused any.
//
// Point discordgo at the server by giving its session an HTTP client whose
// transport is [Server.Transport]; the websocket URL comes from the gateway
// response, so Session.Open works unchanged:
//
//	srv := discordtest.New()
//	defer srv.Close()
//	session, _ := discordgo.New("Bot " + srv.Token())
//	session.Client = &http.Client{Transport: srv.Transport()}
//	_ = session.Open()
//
// A bot that takes interactions on an HTTP endpoint instead (Discord's
// Interactions Endpoint URL) gets them from [Server.DeliverOverHTTP]:
// POSTs signed with the server's ed25519 key ([Server.PublicKey]), taking
// turns over several endpoints and skipping one that refuses the
// connection, as behind a load balancer. The initial response comes back
// in the answer's body or through the callback route, and is recorded
// either way.
//
// Tests then act as users — [Server.SendCommand], [Server.ClickButton],
// [Server.SelectValues], [Server.SendAutocomplete], [Interaction.SubmitModal]
// — and observe the bot through [Interaction.Reply], [Server.WaitMessage],
// [Server.Messages], [Server.Subscribe] and [Server.Requests]. Faults are
// injected with [Server.InjectFault] (rate limits, server errors, slow
// responses), [Server.CloseGateway], [Server.RequestReconnect] and
// [Server.SetDispatchDelay]; membership changes with
// [Server.RemoveBotFromGuild], [Server.SetGuildUnavailable] and
// [Server.RemoveMember].
package discordtest
