"""Experiments on search with a learned prior (chapter 7, "PUCT and Gumbel").

- :mod:`.mctx_tables`: tic-tac-toe as JAX tables, so that DeepMind's ``mctx`` searches it
  and the readable PUCT and Gumbel searches can be checked against it;
- :mod:`.network`: self-play data and training of the small UTTT network;
- :mod:`.network_play`: the network inside PUCT against the UCT bot, and its cost;
- :mod:`.prior_play`: the network as a progressive bias inside UCT;
- :mod:`.gumbel_vs_puct`: Gumbel MuZero's root against PUCT at 2 to 32 simulations.

Stored results: ``data/network/`` (its README gives every file's command).
"""
