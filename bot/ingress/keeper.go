package ingress

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// shardKeeper shares the shards between the processes of a bot that run
// with Config.Auto. Each process holds an expiring claim on its
// membership (member/<instance>) and one on every shard it runs
// (shard/<count>/<id>), renewed every third of ClaimTTL. A process runs
// its share, the shard count divided by the live members rounded up: it
// takes free shards — never claimed, released, or expired with a dead
// process — while below it, and gives up its highest shards while above
// it, so that a process joining gets its share from the others.
type shardKeeper struct {
	g *Gateway

	mu      sync.Mutex
	renewed time.Time // by the wall clock
}

func (k *shardKeeper) memberKey() string { return "member/" + k.g.cfg.Instance }

func (k *shardKeeper) shardKey(id int) string {
	return fmt.Sprintf("shard/%d/%d", k.g.Count(), id)
}

// run balances the shards until ctx is done, then gives up every claim so
// that the others take the shards at once. balanced is closed after the
// first round.
func (k *shardKeeper) run(ctx context.Context, balanced chan<- struct{}) {
	g := k.g
	tick := time.NewTicker(g.cfg.ClaimTTL / 3)
	defer tick.Stop()
	for first := true; ; first = false {
		if err := k.balance(ctx); err != nil && ctx.Err() == nil {
			g.log.Error("share the shards", "err", err)
		}
		if first {
			close(balanced)
		}
		select {
		case <-ctx.Done():
			k.leave()
			return
		case <-tick.C:
		}
	}
}

// renew renews the membership and the shard claims, at most once per
// third of ClaimTTL, and drops a shard whose claim another process took
// (this one stalled past its claim).
func (k *shardKeeper) renew(ctx context.Context) {
	g := k.g
	k.mu.Lock()
	if time.Since(k.renewed) < g.cfg.ClaimTTL/3 {
		k.mu.Unlock()
		return
	}
	k.renewed = time.Now()
	k.mu.Unlock()
	if _, err := g.cfg.Claims.Claim(ctx, k.memberKey(), g.cfg.Instance, g.cfg.ClaimTTL); err != nil {
		g.log.Warn("renew membership", "err", err)
	}
	for _, id := range g.shards.ids() {
		ok, err := g.cfg.Claims.Claim(ctx, k.shardKey(id), g.cfg.Instance, g.cfg.ClaimTTL)
		if err != nil {
			g.log.Warn("renew shard claim", "shard", id, "err", err)
		} else if !ok {
			g.log.Warn("shard taken by another process; closing it", "shard", id)
			k.drop(id, false)
		}
	}
}

// balance is one round: renew, then take or give up shards to reach this
// process's share.
func (k *shardKeeper) balance(ctx context.Context) error {
	g := k.g
	k.mu.Lock()
	k.renewed = time.Time{} // renew now
	k.mu.Unlock()
	k.renew(ctx)
	members, err := g.cfg.Claims.Claims(ctx, "member/")
	if err != nil {
		return err
	}
	count := g.Count()
	share := (count + max(len(members), 1) - 1) / max(len(members), 1)
	held := g.shards.ids()
	for len(held) > share {
		id := held[len(held)-1]
		held = held[:len(held)-1]
		g.log.Info("giving up a shard to another process", "shard", id, "share", share, "processes", len(members))
		k.drop(id, true)
	}
	if len(held) >= share {
		return nil
	}
	live, err := g.cfg.Claims.Claims(ctx, fmt.Sprintf("shard/%d/", count))
	if err != nil {
		return err
	}
	for id := 0; id < count && len(held) < share; id++ {
		if _, taken := live[k.shardKey(id)]; taken {
			continue
		}
		ok, err := g.cfg.Claims.Claim(ctx, k.shardKey(id), g.cfg.Instance, g.cfg.ClaimTTL)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := k.take(ctx, id); err != nil {
			_ = g.cfg.Claims.Release(context.WithoutCancel(ctx), k.shardKey(id), g.cfg.Instance)
			return err
		}
		held = append(held, id)
	}
	return nil
}

// take connects shard id, whose claim this process holds, and does for
// its guilds what a start does: redraw recent boards a dead process may
// have left behind.
func (k *shardKeeper) take(ctx context.Context, id int) error {
	g := k.g
	s, err := g.newSession()
	if err != nil {
		return err
	}
	s.ShardID, s.ShardCount = id, g.Count()
	// Open waits for the identify queue (Gateway.identify); a long wait
	// must not let the shards held expire.
	opened := make(chan struct{})
	go func() {
		for {
			select {
			case <-opened:
				return
			case <-time.After(identifyPoll):
				k.renew(ctx)
			}
		}
	}()
	err = s.Open()
	close(opened)
	if err != nil {
		return fmt.Errorf("bot: connect shard %d to the gateway: %w", id, err)
	}
	g.shards.put(id, s)
	g.log.Info("took a shard", "shard", id, "shards", fmt.Sprint(g.shards.ids()))
	if g.cfg.TookShard != nil {
		g.cfg.TookShard(ctx, id, g.Count())
	}
	return nil
}

// drop closes shard id's session and, with release, gives up its claim.
func (k *shardKeeper) drop(id int, release bool) {
	g := k.g
	s := g.shards.session(id)
	g.shards.put(id, nil)
	if s != nil {
		if err := g.closeSession(s); err != nil {
			g.log.Warn("close a shard's gateway", "shard", id, "err", err)
		}
	}
	if release {
		if err := g.cfg.Claims.Release(context.Background(), k.shardKey(id), g.cfg.Instance); err != nil {
			g.log.Warn("release a shard", "shard", id, "err", err)
		}
	}
}

// leave gives up every shard and the membership, at shutdown.
func (k *shardKeeper) leave() {
	g := k.g
	ids := g.shards.ids()
	slices.Reverse(ids)
	for _, id := range ids {
		k.drop(id, true)
	}
	if err := g.cfg.Claims.Release(context.Background(), k.memberKey(), g.cfg.Instance); err != nil {
		g.log.Warn("release membership", "err", err)
	}
}
