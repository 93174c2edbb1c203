"""Self-play data, training and measurements of the UTTT network (chapter 7).

The chapter "PUCT and Gumbel: search with a learned prior" (chapter 7) trains a small
policy/value network for Ultimate Tic-Tac-Toe by *expert iteration* (Anthony,
Tian and Barber 2017, "Thinking fast and slow with deep learning and tree
search"): the expert is our fast UCT bot, the apprentice the network.

1. :func:`self_play`: games of :class:`mctslib.bots.uttt.UTTTBot` (spec
   ``uct:c=C,iters=N,wins=on,solver=on``) from distinct seeded random
   openings. Every position stores its state array, the search's root visit
   distribution (the policy target; a proven win found by the solver is a
   one-hot target on that move, and proven losses get no weight while another
   move exists) and the final result for the side to move (the value target:
   +1, 0, -1). For the first ``sample_plies`` moves after the opening the
   move is drawn in proportion to that distribution (diversity); afterwards
   the bot's own answer is played.
2. :func:`train`: the MLP of :mod:`mctslib.fast.uttt_network` in JAX with
   optax's Adam: loss = cross-entropy to the visit distribution + mean squared
   error of the value + ``l2`` times the squared weights; minibatches drawn
   from a seeded key; the games are split into a training and a held-out set
   (whole games, so that no position of a held-out game is trained on). Every
   training position is used under one of the 8 symmetries of the board,
   drawn at random each epoch.
3. :func:`evaluate_network`: how well the network predicts (top-1 agreement
   with the most visited move, value error against a constant predictor).
4. :func:`tiny_training`: the whole pipeline in seconds, for the notebook.

What plays and what measures play (the cost of a network call, search
speeds, :class:`~mctslib.experiments.puct.network_play.PUCTPlayer` and the
stored matches) is in :mod:`mctslib.experiments.puct.network_play`, which
imports this module and never the other way round.

Why one module of about 530 lines: what is left changes as one: the self-play format, the
symmetries applied to it and the training that reads it.

JAX and optax are imported inside the functions that need them, so that
``import mctslib`` does not need JAX.

Command line (long runs on one core: ``taskset -c 0``; times in ``data/network/README.md``)::

    python -m mctslib.experiments.puct.network selfplay --games 4000 --iters 5000
    python -m mctslib.experiments.puct.network train --hidden 128 --epochs 40
    python -m mctslib.experiments.puct.network_play measure

The self-play positions go to :data:`DEFAULT_DATA` (outside git, about 9 MB);
``train`` writes :data:`DEFAULT_WEIGHTS` and its JSON sidecar;
:func:`mctslib.experiments.puct.network_play.measure` adds the cost of a network call
and the search speeds to the sidecar.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from ..._checks import check_int, check_real
from ..._version import __version__
from ...bots.uttt import MAX_OPENINGS, UTTTBot, random_openings
from ...fast import uttt as engine
from ...fast import uttt_network as net
from ...progress import progress_bar
from ...rng import make_rng

__all__ = ["DEFAULT_DATA", "DEFAULT_WEIGHTS", "SelfPlayData", "evaluate_network", "jax_forward",
           "load_self_play", "main", "params_to_weights", "save_weights", "self_play",
           "symmetry_gathers", "symmetry_moves", "tiny_training", "train"]

#: Where the self-play positions go (outside git: they are regenerated, only weights are kept).
DEFAULT_DATA = Path(tempfile.gettempdir()) / "mctsbook-network" / "selfplay.npz"
#: The stored weights (and their JSON sidecar, same name with .json).
DEFAULT_WEIGHTS = Path("data") / "network" / "uttt_mlp.npz"


class SelfPlayData:
    """Positions of self-play games: ``states`` (P, 34) int64 state arrays, ``policy``
    (P, 81) float32 visit distributions, ``value`` (P,) int8 results for the side to
    move, ``game`` (P,) int32 game numbers, and ``params`` (how they were made)."""

    def __init__(self, states, policy, value, game, params):
        self.states, self.policy, self.value, self.game = states, policy, value, game
        self.params = params

    def __len__(self) -> int:
        return len(self.value)

    def save(self, path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, states=self.states, policy=self.policy, value=self.value,
                            game=self.game, params=json.dumps(self.params))
        return path


def load_self_play(path) -> SelfPlayData:
    """Read what :meth:`SelfPlayData.save` wrote (ValueError naming ``path`` if it cannot)."""
    try:
        with np.load(path) as f:
            return SelfPlayData(f["states"], f["policy"], f["value"], f["game"],
                                json.loads(str(f["params"])))
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"path {str(path)!r} does not hold self-play data written by "
                         f"self_play ({error}); run the selfplay command first.") from None


class _NoBar:
    def update(self, n):
        pass


def _search_target(bot: UTTTBot, move: int) -> np.ndarray:
    """The policy target of the bot's last search (see the module docstring)."""
    target = np.zeros(81, dtype=np.float64)
    stats = bot.root_stats()
    if any(proven == 1 for _, _, _, proven in stats) or sum(v for _, v, _, _ in stats) == 0:
        target[move] = 1.0
        return target
    lost_all = all(proven == -1 for _, _, _, proven in stats)
    for child, visits, _, proven in stats:
        if proven != -1 or lost_all:
            target[child] = visits
    total = math.fsum(target)
    if total == 0:
        target[move] = 1.0
        return target
    return target / total


def self_play(games: int = 100, iterations: int = 1000, *, c: float = 0.5,
              sample_plies: int = 12, opening_plies: int = 3, seed: int = 0,
              scoring: str = "codingame", progress: bool = True) -> SelfPlayData:
    """Play ``games`` games of the UCT bot against itself and record every position.

    Parameters
    ----------
    games : int
        Number of games (1 to :data:`mctslib.bots.uttt.MAX_OPENINGS`), each from its
        own distinct opening of ``opening_plies`` random moves.
    iterations : int
        Iterations of the bot's search per move (1 to 10,000,000).
    c : float
        The exploration constant (0 to 100).
    sample_plies : int
        For this many moves after the opening (0 to 81) the move is drawn in
        proportion to the search's visit distribution; later the bot's answer.
    opening_plies : int
        Random moves of each opening (1 to 10).
    seed : int
        Seeds the openings (``seed``), the bot and the move draws (both from
        ``make_rng(seed + 1)``).
    """
    games = check_int("games", games, 1, MAX_OPENINGS)
    iterations = check_int("iterations", iterations, 1, 10_000_000)
    c = check_real("c", c, 0.0, 100.0)
    sample_plies = check_int("sample_plies", sample_plies, 0, 81)
    opening_plies = check_int("opening_plies", opening_plies, 1, 10)
    seed = check_int("seed", seed, 0)
    openings = random_openings(games, opening_plies, seed, scoring)
    rng = make_rng(seed + 1)
    spec = f"uct:c={c},iters={iterations},wins=on,solver=on"
    bot = UTTTBot(spec, seed=int(rng.integers(2**63)))
    states, policy, value, game_of = [], [], [], []
    start, load = time.perf_counter(), list(os.getloadavg())
    with (progress_bar(games, "self-play games", "game") if progress
          else contextlib.nullcontext(_NoBar())) as bar:
        for number, state in enumerate(openings):
            movers, first = [], len(states)
            ply = 0
            while not state.is_terminal():
                move = bot.choose(state)
                target = _search_target(bot, move)
                states.append(engine.to_array(state))
                policy.append(target)
                movers.append(state.player_to_move)
                if ply < sample_plies:
                    move = int(rng.choice(81, p=target))
                state = state.play(move)
                ply += 1
            winner = state.winner()
            value.extend(0 if winner is None else (1 if winner == mover else -1)
                         for mover in movers)
            game_of.extend([number] * (len(states) - first))
            bar.update(1)
    seconds = time.perf_counter() - start
    params = {"games": games, "iterations": iterations, "spec": spec, "c": c,
              "sample_plies": sample_plies, "opening_plies": opening_plies, "seed": seed,
              "scoring": scoring, "positions": len(states), "seconds": round(seconds, 1),
              "load": load, "mctslib": __version__}
    return SelfPlayData(np.array(states, dtype=np.int64).reshape(-1, engine.STATE_SIZE),
                        np.array(policy, dtype=np.float32).reshape(-1, 81),
                        np.array(value, dtype=np.int8), np.array(game_of, dtype=np.int32),
                        params)



# --- symmetries -------------------------------------------------------------------------


def symmetry_moves() -> np.ndarray:
    """(8, 81) int: ``table[t, m]`` is the image of move ``m`` under symmetry ``t``.

    The 8 symmetries of the square act on the 9 x 9 grid; each maps small boards
    onto small boards (a 3 x 3 block stays a block), so it is a symmetry of the game.
    """
    maps = [lambda r, c: (r, c), lambda r, c: (c, 8 - r), lambda r, c: (8 - r, 8 - c),
            lambda r, c: (8 - c, r), lambda r, c: (r, 8 - c), lambda r, c: (8 - r, c),
            lambda r, c: (c, r), lambda r, c: (8 - c, 8 - r)]
    table = np.zeros((8, 81), dtype=np.int64)
    for t, f in enumerate(maps):
        for m in range(81):
            row, col = f(m // 9, m % 9)
            table[t, m] = 9 * row + col
    return table


def symmetry_gathers() -> tuple[np.ndarray, np.ndarray]:
    """Gather indices ``(features (8, 270), moves (8, 81))``: ``y = x[g[t]]`` is ``x`` under ``t``."""
    moves = symmetry_moves()
    inverse = np.argsort(moves, axis=1)  # inverse[t, new] = old
    boards = np.array([[int(engine.BOARD_OF[inverse[t, int(engine.MOVE_OF[b, 0])]]) for b in range(9)]
                       for t in range(8)], dtype=np.int64)
    # boards[t, new_board] = old board: the board holding the image's preimage of a cell.
    gather = np.zeros((8, net.N_FEATURES), dtype=np.int64)
    for t in range(8):
        for plane in (net.OWN, net.OPPONENT, net.LEGAL):
            gather[t, plane:plane + 81] = plane + inverse[t]
        for plane in (net.OWN_WON, net.OPPONENT_WON, net.DRAWN):
            gather[t, plane:plane + 9] = plane + boards[t]
    return gather, inverse


# --- training (JAX and optax imported here, not at module level) -----------------------


def _init_params(key, hidden):
    import jax
    import jax.numpy as jnp
    sizes = (net.N_FEATURES, *hidden)
    params = {}
    keys = jax.random.split(key, len(hidden) + 2)
    for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        params[f"w{i + 1}"] = jax.random.normal(keys[i], (n_in, n_out)) * math.sqrt(2.0 / n_in)
        params[f"b{i + 1}"] = jnp.zeros(n_out)
    params["wp"] = jax.random.normal(keys[-2], (sizes[-1], 81)) * math.sqrt(1.0 / sizes[-1])
    params["bp"] = jnp.zeros(81)
    params["wv"] = jax.random.normal(keys[-1], (sizes[-1],)) * math.sqrt(1.0 / sizes[-1])
    params["bv"] = jnp.zeros(1)
    return params


def jax_forward(params, x):
    """The network in JAX: ``(masked logits (B, 81) with -1e9 where illegal, values (B,))``."""
    import jax.numpy as jnp
    h = jnp.maximum(x @ params["w1"] + params["b1"], 0.0)
    if "w2" in params:
        h = jnp.maximum(h @ params["w2"] + params["b2"], 0.0)
    logits = h @ params["wp"] + params["bp"]
    legal = x[:, net.LEGAL:net.LEGAL + 81] > 0
    return jnp.where(legal, logits, -1e9), jnp.tanh(h @ params["wv"] + params["bv"][0])


def _losses(params, x, policy, value):
    import jax
    import jax.numpy as jnp
    logits, v = jax_forward(params, x)
    policy_loss = -jnp.mean(jnp.sum(policy * jax.nn.log_softmax(logits), axis=1))
    value_loss = jnp.mean((v - value) ** 2)
    agree = jnp.mean(jnp.argmax(logits, axis=1) == jnp.argmax(policy, axis=1))
    return policy_loss, value_loss, agree


def params_to_weights(params) -> net.Weights:
    """The trained JAX parameters as the numba network's float64 :class:`~net.Weights`."""
    arrays = {name: np.asarray(value, dtype=np.float64) for name, value in params.items()}
    arrays.setdefault("w2", np.zeros((0, 0)))
    arrays.setdefault("b2", np.zeros(0))
    return net.as_weights(arrays)


def _split(data: SelfPlayData, held_out: float, rng):
    games = np.unique(data.game)
    test_games = rng.choice(games, size=max(1, round(held_out * len(games))), replace=False)
    test = np.isin(data.game, test_games)
    return np.flatnonzero(~test), np.flatnonzero(test)


def train(data: SelfPlayData, *, hidden=(128,), epochs: int = 20, batch: int = 512,
          learning_rate: float = 1e-3, l2: float = 1e-5, held_out: float = 0.1,
          seed: int = 0, max_seconds: float = 300.0, symmetries: bool = True,
          keep_best: bool = True, log=print) -> dict:
    """Train the network on ``data``; return a dict with ``weights`` and the run's record.

    Loss per position: cross-entropy of the softmax over legal moves to the
    visit distribution, plus ``(value - outcome)^2``, plus ``l2`` times the sum
    of squared weight matrices. Adam (optax) with ``learning_rate``; each epoch
    visits the training positions once in an order drawn from a JAX key split
    from ``seed``, each under a random symmetry (if ``symmetries``). Stops after
    ``epochs`` or once ``max_seconds`` have passed (at an epoch's end). Held-out
    set: ``held_out`` of the games (drawn with ``make_rng(seed)``). ``log`` gets
    one line per epoch (train and held-out losses). With ``keep_best`` the
    result holds the parameters of the epoch with the least held-out loss
    (policy + value; ``epoch`` says which): early stopping, so the held-out
    numbers of that epoch are slightly optimistic.
    """
    import jax
    import jax.numpy as jnp
    import optax
    hidden = tuple(check_int("each of hidden (layer sizes)", h, 1, 1024) for h in hidden)
    if not 1 <= len(hidden) <= 2:
        raise ValueError(f"hidden must list one or two layer sizes, got {hidden!r}.")
    epochs = check_int("epochs", epochs, 1, 10_000)
    batch = check_int("batch", batch, 1, 1 << 20)
    learning_rate = check_real("learning_rate", learning_rate, 1e-8, 1.0)
    l2 = check_real("l2", l2, 0.0, 1.0)
    held_out = check_real("held_out", held_out, 0.0, 0.9)
    max_seconds = check_real("max_seconds", max_seconds, 0.0)
    start = time.perf_counter()
    x_all = np.zeros((len(data), net.N_FEATURES), dtype=np.uint8)
    net.features_rows(data.states, x_all)
    train_rows, test_rows = _split(data, held_out, make_rng(seed))
    x_train, p_train = x_all[train_rows], data.policy[train_rows]
    v_train = data.value[train_rows].astype(np.float32)
    x_test = jnp.asarray(x_all[test_rows], dtype=jnp.float32)
    p_test, v_test = jnp.asarray(data.policy[test_rows]), jnp.asarray(data.value[test_rows],
                                                                       dtype=jnp.float32)
    gather, moves = (jnp.asarray(a) for a in symmetry_gathers())
    key = jax.random.PRNGKey(seed)
    key, init_key = jax.random.split(key)
    params = _init_params(init_key, hidden)
    optimiser = optax.adam(learning_rate)
    state = optimiser.init(params)

    def loss_fn(params, x, policy, value):
        policy_loss, value_loss, _ = _losses(params, x, policy, value)
        penalty = sum(jnp.sum(w ** 2) for name, w in params.items() if name[0] == "w")
        return policy_loss + value_loss + l2 * penalty, (policy_loss, value_loss)

    @jax.jit
    def step(params, state, key, x, policy, value):
        if symmetries:
            t = jax.random.randint(key, (x.shape[0],), 0, 8)
            x = jnp.take_along_axis(x, gather[t], axis=1)
            policy = jnp.take_along_axis(policy, moves[t], axis=1)
        (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(
            params, x.astype(jnp.float32), policy, value)
        updates, state = optimiser.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss, parts

    evaluate = jax.jit(_losses)
    history, n, best = [], len(train_rows), None
    steps = max(1, n // batch)
    for epoch in range(1, epochs + 1):
        key, order_key = jax.random.split(key)
        order = np.asarray(jax.random.permutation(order_key, n))
        sums = np.zeros(3)
        for i in range(steps):
            key, sym_key = jax.random.split(key)
            rows = order[i * batch:(i + 1) * batch]
            params, state, loss, parts = step(params, state, sym_key, x_train[rows],
                                              p_train[rows], v_train[rows])
            sums += [float(loss), float(parts[0]), float(parts[1])]
        train_loss = sums / steps
        test = [float(a) for a in evaluate(params, x_test, p_test, v_test)] \
            if len(test_rows) else [math.nan] * 3
        history.append({"epoch": epoch, "train_policy": train_loss[1],
                        "train_value": train_loss[2], "held_out_policy": test[0],
                        "held_out_value": test[1], "held_out_top1": test[2],
                        "seconds": round(time.perf_counter() - start, 1)})
        log(f"epoch {epoch:3d}: train policy {train_loss[1]:.4f} value {train_loss[2]:.4f} | "
            f"held-out policy {test[0]:.4f} value {test[1]:.4f} top-1 {test[2]:.3f} "
            f"({time.perf_counter() - start:.0f} s)")
        held_total = test[0] + test[1]
        if best is None or held_total < best[0]:
            best = (held_total, epoch, params)
        if time.perf_counter() - start > max_seconds:
            break
    if keep_best and best is not None and not math.isnan(best[0]):
        params = best[2]
    chosen = best[1] if keep_best and best is not None and not math.isnan(best[0]) else epoch
    return {"weights": params_to_weights(params), "params": params, "history": history,
            "epoch": chosen,
            "hidden": list(hidden), "train_rows": train_rows, "test_rows": test_rows,
            "settings": {"epochs": epochs, "batch": batch, "learning_rate": learning_rate,
                         "l2": l2, "held_out": held_out, "seed": seed,
                         "symmetries": symmetries, "max_seconds": max_seconds,
                         "keep_best": keep_best, "epoch_kept": chosen},
            "seconds": round(time.perf_counter() - start, 1)}


def save_weights(result: dict, data_params: dict, path=DEFAULT_WEIGHTS, extra=None) -> Path:
    """Store a :func:`train` result: float32 arrays in ``path`` (.npz) and a JSON sidecar."""
    import jax
    import optax
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    w = result["weights"]
    np.savez_compressed(path, **{name: getattr(w, name).astype(np.float32)
                                 for name in net.Weights._fields})
    meta = {"features_version": net.FEATURES_VERSION, "n_features": net.N_FEATURES,
            "hidden": result["hidden"], "shapes": {n: list(getattr(w, n).shape)
                                                   for n in net.Weights._fields},
            "data": data_params, "training": result["settings"],
            "history": result["history"], "seconds": result["seconds"],
            "versions": {"mctslib": __version__, "jax": jax.__version__,
                         "optax": optax.__version__, "numpy": np.__version__},
            **(extra or {})}
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    return path


# --- measurements -------------------------------------------------------------------------


def evaluate_network(weights: net.Weights, data: SelfPlayData, rows=None) -> dict:
    """How well the numba network predicts ``data`` (its rows ``rows``, default all).

    ``top1``: the share of positions where the network's highest logit is the
    search's most visited move; ``policy_loss`` the cross-entropy to the visit
    distribution, beside ``uniform_policy_loss`` (uniform over legal moves);
    ``value_mse`` beside ``constant_value_mse`` (the best constant, the mean
    outcome of the rows themselves: a bound no constant beats). The two
    baselines that read them: ``random_move_top1``, the chance that a legal
    move drawn uniformly at random is the most visited one (the mean of
    ``1 / legal moves``), and ``target_entropy``, the mean entropy of the visit
    distributions (the least cross-entropy any policy can reach).
    """
    rows = np.arange(len(data)) if rows is None else np.asarray(rows)
    x, h1, h2, logits = net.empty_work(weights)
    agree, ce, uniform, sq, chance, entropy = 0, [], [], [], [], []
    for r in rows:
        value = net.evaluate(data.states[r], *weights, x, h1, h2, logits)
        target = data.policy[r].astype(np.float64)
        legal = x[net.LEGAL:] > 0
        agree += int(np.argmax(logits) == np.argmax(target))
        top = logits[legal].max()
        log_z = top + math.log(math.fsum(math.exp(v - top) for v in logits[legal]))
        ce.append(-math.fsum(t * (logits[m] - log_z) for m, t in enumerate(target) if t > 0))
        uniform.append(math.log(int(legal.sum())))
        chance.append(1.0 / int(legal.sum()))
        entropy.append(-math.fsum(t * math.log(t) for t in target if t > 0))
        sq.append((value - float(data.value[r])) ** 2)
    mean_value = math.fsum(float(v) for v in data.value[rows]) / len(rows)
    constant = math.fsum((float(v) - mean_value) ** 2 for v in data.value[rows]) / len(rows)
    return {"positions": len(rows), "top1": agree / len(rows),
            "policy_loss": math.fsum(ce) / len(rows),
            "uniform_policy_loss": math.fsum(uniform) / len(rows),
            "value_mse": math.fsum(sq) / len(rows), "constant_value_mse": constant,
            "random_move_top1": math.fsum(chance) / len(rows),
            "target_entropy": math.fsum(entropy) / len(rows)}


def tiny_training(games: int = 4, iterations: int = 200, epochs: int = 2, hidden=(32,),
                  seed: int = 0, log=print) -> dict:
    """The whole pipeline in a few seconds (for the notebook): self-play, training, check.

    Returns the :func:`train` result plus ``data`` and ``held_out`` (the
    :func:`evaluate_network` numbers of the numba network on the held-out games).
    """
    data = self_play(games, iterations, seed=seed, progress=False)
    result = train(data, hidden=hidden, epochs=epochs, batch=64, seed=seed, log=log)
    result["data"] = data
    result["held_out"] = evaluate_network(result["weights"], data, result["test_rows"])
    return result


def _sample_states(data: SelfPlayData, rows, count: int, seed: int) -> np.ndarray:
    """``count`` positions still on from ``rows`` (drawn with ``make_rng(seed)``)."""
    rows = np.asarray(rows)
    rows = rows[data.states[rows, engine.OUTCOME] == engine.ONGOING]
    pick = make_rng(seed).choice(rows, size=min(count, len(rows)), replace=False)
    return data.states[np.sort(pick)]



def held_out_positions(data: SelfPlayData, training: dict, count: int, seed: int) -> np.ndarray:
    """``count`` unfinished positions of the games held out of training, drawn with ``seed``.

    ``training`` is the ``"training"`` record stored beside the weights (its
    ``held_out`` share and ``seed`` give the same split as :func:`train`). The
    positions on which :mod:`mctslib.experiments.puct.network_play` measures the
    network's cost.
    """
    _, test_rows = _split(data, training["held_out"], make_rng(training["seed"]))
    return _sample_states(data, test_rows, count, seed)

def main(argv=None) -> int:
    """``selfplay`` and ``train``; the network's cost and its matches are
    :mod:`mctslib.experiments.puct.network_play`'s ``measure`` and ``match``."""
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.puct.network",
        epilog="The network's cost and search speed: python -m "
               "mctslib.experiments.puct.network_play measure; its matches: ... network_play match.")
    parser.add_argument("command", choices=("selfplay", "train"))
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help=f"self-play positions (default {DEFAULT_DATA})")
    parser.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--iters", type=int, default=5000)
    parser.add_argument("--hidden", type=int, nargs="+", default=[128])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--l2", type=float, default=1e-5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.command == "selfplay":
        data = self_play(args.games, args.iters, seed=args.seed)
        path = data.save(args.data)
        print(json.dumps(data.params))
        print(f"{len(data)} positions written to {path}")
        return 0
    data = load_self_play(args.data)
    if args.command == "train":
        result = train(data, hidden=args.hidden, epochs=args.epochs, seed=args.seed,
                       max_seconds=args.max_seconds, learning_rate=args.lr, l2=args.l2)
        path = save_weights(result, data.params, args.weights)
        stored = net.load_weights(path)  # measure what is stored (float32 values)
        held = evaluate_network(stored, data, result["test_rows"])
        save_weights(result, data.params, path, extra={"held_out": held})
        print(json.dumps(held, indent=1))
        print(f"{path}: {path.stat().st_size} bytes; {result['seconds']} s")
        return 0
    raise AssertionError(args.command)  # argparse allows only the two commands above

if __name__ == "__main__":
    raise SystemExit(main())
