// Package tournament holds the rules of Gambit's tournaments, as pure
// functions over plain values: no clock, no storage, no Discord, and no
// I/O but reading and writing FIDE's tournament report files.
//
//   - Swiss: PairDutch pairs the next round of a Swiss by the FIDE Dutch
//     system (C.04.3, the rules of 2025): score groups, colour
//     preferences, no rematches, floaters, one bye a player at most. It
//     gives the pairings of bbpPairings, the engine FIDE endorses
//     (testdata/bbp holds the check). Standings ranks by score, Buchholz
//     Cut 1, Sonneborn-Berger and direct encounter.
//   - Round robin: RoundRobin gives FIDE's Berger tables, single or
//     double, for 3 to 12 players.
//   - Arena: ArenaScore and PairArena score and pair as Lichess's Arena
//     does.
//   - DecodeTRF and EncodeTRF read and write TRF-16 (with TRF(x)'s XXR
//     and XXC), so an organiser can check a tournament with FIDE's tools.
//
// A Swiss is a value the caller keeps: its players with their results
// round by round. To play a round, call PairDutch, record each board's
// Entry on both players (and the bye), and when the games end, their
// results. Errors are typed (ErrNoPairing, ErrTournament, ErrTRF,
// ErrRoundRobinSize) and wrapped with their context.
package tournament
