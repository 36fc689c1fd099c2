// ponsbench.cpp: our driver (not his code) around Pascal Pons' Connect Four
// solver, for scripts/figures/connect4.sh: it solves each position of a test
// set read from standard input, one "moves score" a line, as his test
// protocol does (the table emptied before each position, not timed, no
// opening book), checks the score and prints the mean CPU time a position
// (CLOCK_PROCESS_CPUTIME_ID around each solve) and the mean nodes (his
// count, one a negamax call).
//
// His solver is not part of this repository (it is AGPL-3.0): build this
// against a checkout of github.com/PascalPons/connect4:
//
//   g++ --std=c++11 -O3 -DNDEBUG -I$PONS_DIR -o ponsbench ponsbench.cpp $PONS_DIR/Solver.cpp
//
// Usage: ponsbench [-w] [-n LIMIT] < Test_L2_R1   (-w: weak solve; -n: the first LIMIT positions)
#include "Solver.hpp"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>
using namespace GameSolver::Connect4;
static double cpu() { timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
  bool weak = false; long limit = 1L << 40;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-w")) weak = true;
    else if (!strcmp(argv[i], "-n") && i + 1 < argc) limit = atol(argv[++i]);
  }
  Solver solver;
  std::string line; long n = 0, bad = 0; double spent = 0; unsigned long long nodes = 0;
  while (n < limit && std::getline(std::cin, line)) {
    std::istringstream in(line); std::string moves; int want = 0; in >> moves >> want;
    if (moves == "start") moves = "";
    Position P;
    if (P.play(moves) != moves.size()) { fprintf(stderr, "bad line %s\n", line.c_str()); return 1; }
    solver.reset();
    double t0 = cpu();
    int got = solver.solve(P, weak);
    spent += cpu() - t0;
    nodes += solver.getNodeCount();
    if (weak) want = (want > 0) - (want < 0);
    if (got != want) bad++;
    n++;
  }
  printf("pons: %ld positions, %ld wrong, %.1f µs CPU a position, %.0f nodes a position, %.3f s in all\n", n, bad, spent / n * 1e6, (double)nodes / n, spent);
  return bad != 0;
}
