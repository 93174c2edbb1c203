"""Experiments on simultaneous-move games (chapter 8, "When both players move at once").

- :mod:`.one_node`: decoupled UCB1 against regret matching at one node, distance from
  equilibrium over rounds;
- :mod:`.smmcts`: how fast SM-MCTS and Smitsimax approach equilibrium on Goofspiel;
- :mod:`.exploration`: the same trees scored with their exploring picks kept and removed;
- :mod:`.tuning`: each method's best parameter at each budget, then the comparison;
- :mod:`.matches`: head-to-head Goofspiel matches, and mixing against maximising;
- :mod:`.random_order`: Goofspiel with a random prize order, a game that needs mixing;
- :mod:`.extras`: a turn-taking tree, and three agents.

Stored results: ``data/simultaneous/`` (its README gives every file's command).
"""
