"""Searches: flat Monte Carlo, minimax, UCT, zero-sum solvers, SM-MCTS, Smitsimax."""
