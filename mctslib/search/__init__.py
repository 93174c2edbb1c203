"""Searches: flat Monte Carlo, minimax, UCT, RAVE and GRAVE (``rave``), UCT with a
transposition table (``transpositions``), progressive widening (``widening``), zero-sum
solvers, SM-MCTS, Smitsimax."""
