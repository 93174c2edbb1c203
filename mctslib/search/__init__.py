"""Searches: flat Monte Carlo, minimax, UCT, RAVE and GRAVE (``rave``), zero-sum solvers, SM-MCTS,
Smitsimax."""
