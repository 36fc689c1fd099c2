#!/usr/bin/env bash
# scripts/bbp-testdata.sh: regenerates tournament/testdata/bbp, the random
# Swiss tournaments that tournament's Dutch system is checked against.
# Run from the repository's root. It clones bbpPairings (the FIDE-endorsed
# Dutch pairing engine, Apache-2.0) at the pinned commit, builds it with
# its makefile (g++), and has its random tournament generator write one
# TRF per (players, seed): every round of each file is paired by
# bbpPairings' Dutch system (FIDE C.04.3, the 2025 rules). The
# generator's output depends only on the configuration and the seed, so
# the files repeat exactly. BBP=DIR uses an existing build (DIR holds
# build/bbpPairings.exe) instead of cloning.
set -euo pipefail
COMMIT=16a000f9811de322b0e835d5643198226165b5a9
out=tournament/testdata/bbp
if [ -z "${BBP:-}" ]; then
	BBP=$(mktemp -d)
	trap 'rm -rf "$BBP"' EXIT
	git clone -q https://github.com/BieremaBoyzProgramming/bbpPairings "$BBP"
	git -C "$BBP" checkout -q "$COMMIT"
	make -C "$BBP" -j2 >/dev/null
fi
exe=$BBP/build/bbpPairings.exe
rm -f "$out"/*.trf
cfg=$(mktemp)
# Players 5 to 60, three seeds each; rounds grow with the field (5 below
# 10 players, 7 below 20, 9 from 20). 30% draws; one game in 40
# forfeited, one player in 60 retiring, one half-point bye in 40
# player-rounds: the unplayed games the rules treat apart.
for players in $(seq 5 60); do
	rounds=9
	if [ "$players" -lt 10 ]; then rounds=5; elif [ "$players" -lt 20 ]; then rounds=7; fi
	for seed in 1 2 3; do
		cat >"$cfg" <<CFG
PlayersNumber=$players
RoundsNumber=$rounds
DrawPercentage=30
ForfeitRate=40
RetiredRate=60
HalfPointByeRate=40
HighestRating=2600
LowestRating=1400
CFG
		s=$((players * 100 + seed))
		file=$out/p$(printf %02d "$players")-s$seed.trf
		rc=0
		"$exe" --dutch -g "$cfg" -o "$file" -s "$s" >/dev/null 2>&1 || rc=$?
		if [ "$rc" -ne 0 ]; then
			# No valid pairing for some round of this seed (exit 1):
			# bbpPairings leaves no tournament to compare; the file is
			# dropped.
			rm -f "$file"
			echo "players $players seed $s: no tournament (bbpPairings exit $rc)" >&2
		fi
	done
done
rm -f "$cfg"
ls "$out"/*.trf | wc -l
