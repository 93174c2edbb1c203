"""Searches: flat Monte Carlo, minimax, UCT, RAVE and GRAVE (``rave``), UCT with a
transposition table (``transpositions``), zero-sum solvers, SM-MCTS, Smitsimax."""
