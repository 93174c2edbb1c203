"""Learners: UCB1 and the bandit algorithms, and the one-node simultaneous learners."""
