"""Bots that play whole games: the Ultimate Tic-Tac-Toe bot, OpenSpiel's MCTS, a referee."""
