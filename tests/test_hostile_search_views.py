"""Hostile input to the searches, the experiments and the views: a sentence, never a traceback.

Every public function and class of ``mctslib.search``, ``mctslib.experiments``
(simultaneous, smmcts, uttt) and ``mctslib.views`` either answers with a valid
result or raises ValueError naming the parameter, the value and what is
allowed: never IndexError, KeyError, AttributeError, ZeroDivisionError,
OverflowError, RecursionError or RuntimeError, never a hang, never a silent
NaN. The first sections are the issue's reproducers; the rest are the defects
found by going through every public name with wrong types, NaN and
infinities, huge and negative numbers, empty sequences and states of the
wrong game.
"""

import json
import math
import sys
from dataclasses import dataclass

import numpy as np
import pytest
from matplotlib.figure import Figure  # drawn off-screen: no backend needed

from mctslib.experiments.simultaneous import one_node
from mctslib.experiments.simultaneous import smmcts as convergence
from mctslib.experiments.uttt import registry, results, statistics, tuning
from mctslib.games import GameState, TicTacToe
from mctslib.games.goofspiel import Goofspiel
from mctslib.games.matrix_games import MatrixGame, rock_paper_scissors
from mctslib.games.subtraction import SubtractionGame
from mctslib.games.sum15 import SumToFifteen
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search import backward_induction, minimax, smitsimax, zero_sum
from mctslib.search.backward_induction import (
    TableProfile,
    all_states,
    best_response,
    equilibrium_with_exploration,
    exploit,
    profile_exploitability,
    profile_value,
    solve_game,
    stage_game,
    uniform_profile,
)
from mctslib.search.flat import (
    FlatMCResult,
    choice_probabilities,
    find_traps,
    flat_monte_carlo,
    move_table,
    random_playout,
)
from mctslib.search.minimax import (
    check_budget,
    clear_caches,
    minimax_value,
    move_values,
    random_playout_move_values,
    random_playout_outcomes,
    random_playout_value,
    reachable_states,
    winning_moves,
)
from mctslib.search.smitsimax import AgentNode, Smitsimax, blind_floor, blind_guarantee
from mctslib.search.smmcts import SMMCTS, SMNode, random_joint_playout
from mctslib.search.uct import (
    Node,
    UCB1Rule,
    UCTSearch,
    format_tree,
    robust_child,
    shuffled,
)
from mctslib.views import plotting, regret, simplex, ucb1_table, uttt_board
from mctslib.views.bot_match import BotMatchWidget
from mctslib.views.sum15 import (
    Sum15Match,
    sum15_bot_reply,
    sum15_reply_figure,
    sum15_reply_text,
    winning_triples,
)
from mctslib.views.uttt_match import (
    UTTTMatch,
    root_child_stats,
    uct_bot_factory,
    uttt_bot_reply,
    uttt_reply_figure,
    uttt_reply_text,
)
from mctslib.views.uttt_widget import UTTTWidget

TRAP = TicTacToe.from_string("..O/X../.X.")
OVER = TicTacToe.from_string("XXX/OO./...")


def finished_goofspiel(cards: int = 2) -> Goofspiel:
    state = Goofspiel(cards)
    while not state.is_terminal():
        state = state.play((state.legal_actions(0)[0], state.legal_actions(1)[0]))
    return state


@dataclass(frozen=True)
class Loop(GameState):
    """A broken game: from 0 a move goes to 1 and from 1 back to 0, for ever."""

    at: int = 0

    @property
    def player_to_move(self):
        return self.at

    def legal_moves(self):
        return ("go",)

    def play(self, move):
        return Loop(1 - self.at)

    def is_terminal(self):
        return False

    def winner(self):
        return None


@dataclass(frozen=True)
class Stuck(GameState):
    """A broken game: not over, and yet no legal move."""

    @property
    def player_to_move(self):
        return 0

    def legal_moves(self):
        return ()

    def play(self, move):
        raise self.illegal_move_error(move)

    def is_terminal(self):
        return False

    def winner(self):
        return None


# ======================================================================= the reproducers
# ------------------------------------------------------------ 1. minimax without recursion


def test_minimax_and_reachable_states_solve_a_long_game_without_recursion():
    # 3,000 stones: 3,000 levels, far past Python's recursion limit of 1,000.
    assert sys.getrecursionlimit() < 3000
    assert minimax_value(SubtractionGame(3000), 0) == 0.0  # a multiple of 4 is lost
    assert minimax_value(SubtractionGame(3001), 0) == 1.0
    assert 0.0 <= random_playout_value(SubtractionGame(3000), 0) <= 1.0
    states = reachable_states(SubtractionGame(3000))
    assert len(states) == 6000 and states[0] == SubtractionGame(3000)
    assert winning_moves(SubtractionGame(3001)) == (1,)


def _recursive_minimax(state, memo):
    # The definition the library used to compute by recursion: the reference.
    if state not in memo:
        if state.is_terminal():
            memo[state] = state.result(0)
        else:
            children = [_recursive_minimax(state.play(m), memo) for m in state.legal_moves()]
            memo[state] = max(children) if state.player_to_move == 0 else min(children)
    return memo[state]


def _recursive_reachable(start):
    seen = {}

    def visit(state):
        if state in seen:
            return
        seen[state] = None
        for move in state.legal_moves():
            visit(state.play(move))

    visit(start)
    return list(seen)


def test_the_iterative_solvers_give_the_recursive_values_and_order():
    clear_caches()
    positions = reachable_states(TicTacToe())
    assert positions == _recursive_reachable(TicTacToe())
    assert reachable_states(SubtractionGame(9)) == _recursive_reachable(SubtractionGame(9))
    memo = {}
    for state in positions:
        assert minimax_value(state, 0) == _recursive_minimax(state, memo)
        assert minimax_value(state, 1) == 1.0 - _recursive_minimax(state, memo)


def test_a_game_too_large_for_exact_answers_is_refused_with_its_limit(monkeypatch):
    monkeypatch.setattr(minimax, "MAX_POSITIONS", 1000)
    clear_caches()
    try:
        for solve in (lambda: minimax_value(TicTacToe(), 0),
                      lambda: random_playout_outcomes(TicTacToe(), 0),
                      lambda: reachable_states(TicTacToe()),
                      lambda: find_traps(TicTacToe())):
            with pytest.raises(ValueError, match="at most 1,000 positions"):
                solve()
    finally:
        clear_caches()


def test_a_game_that_never_ends_or_has_no_move_is_named_not_recursed():
    with pytest.raises(ValueError, match="always ends"):
        minimax_value(Loop(), 0)
    with pytest.raises(ValueError, match="always ends"):
        random_playout_value(Loop(), 0)
    assert reachable_states(Loop()) == [Loop(0), Loop(1)]  # listing a loop is fine
    with pytest.raises(ValueError, match="no legal moves"):
        minimax_value(Stuck(), 0)
    with pytest.raises(ValueError, match="no legal moves"):  # was a ZeroDivisionError
        random_playout_outcomes(Stuck(), 0)


# ---------------------------------------------------------------------- 2. robust_child


def test_robust_child_of_a_node_without_children_says_so():
    with pytest.raises(ValueError, match="root has no children"):
        robust_child(Node(None, None, None))
    with pytest.raises(ValueError, match="root must be a Node"):
        robust_child("root")


# ------------------------------------------------------------ 3. finished and missing states


def test_uniform_profile_and_blind_guarantee_refuse_a_finished_game():
    over = finished_goofspiel()
    with pytest.raises(ValueError, match="uniform_profile needs a state where the game is still on"):
        uniform_profile(over, 0)
    with pytest.raises(ValueError, match="blind_guarantee needs a state where the game is still on"):
        blind_guarantee(over)
    with pytest.raises(ValueError, match="blind_guarantee needs"):
        blind_floor(over)


def test_stage_game_names_the_missing_child_value():
    root = Goofspiel(2)
    first_child = root.play((1, 1))
    with pytest.raises(ValueError, match="child_values has no value for the child") as error:
        stage_game(root, {})
    assert str(first_child) in str(error.value)
    with pytest.raises(ValueError, match="child_values must hold a number"):
        stage_game(root, {child: "x" for child in all_states(root)})
    with pytest.raises(ValueError, match="child_values must be a dict"):
        stage_game(root, [1, 2])
    with pytest.raises(ValueError, match="stage_game needs a state where the game is still on"):
        stage_game(finished_goofspiel(), {})


# ------------------------------------------------------------- 4. experiments check at the top


@pytest.fixture
def no_solving(monkeypatch):
    """Fail the test if an experiment starts working before it checked its parameters."""
    def refuse(*args, **kwargs):
        raise AssertionError("the experiment started before checking every parameter")

    monkeypatch.setattr(convergence, "solve_game", refuse)
    monkeypatch.setattr(one_node, "solve_zero_sum", refuse)
    monkeypatch.setattr(results, "play_match", refuse)
    monkeypatch.setattr(results, "random_openings", refuse)


@pytest.mark.parametrize(("arguments", "message"), [
    ({"c": "abc"}, "c .*must be a number"),
    ({"c": -1.0}, "c .*must be a number in \\[0, inf\\)"),
    ({"c": math.nan}, "c .*must be a number"),
    ({"exploration": math.inf}, "exploration must be a number"),
    ({"methods": ("rm",), "exploration": 0.0}, "exploration must be a number in \\(0, 1\\]"),
    ({"cards": 6}, "cards must be at most 5"),
    ({"cards": 2.0}, "cards must be a whole number"),
    ({"scoring": None}, "scoring must be one of"),
    ({"checkpoints": None}, "checkpoints must be a sequence"),
    ({"checkpoints": (10, 10**12)}, "the last checkpoint must be at most 10,000,000"),
    ({"seeds": 3}, "seeds must be a sequence"),
    ({"methods": None}, "methods must be a sequence"),
    ({"methods": [["rm"]]}, "methods must be chosen from"),
    ({"progress": "yes"}, "progress must be True or False"),
])
def test_convergence_experiment_checks_every_parameter_first(no_solving, arguments, message):
    with pytest.raises(ValueError, match=message):
        convergence.convergence_experiment(**{"cards": 2, "checkpoints": (10,), "seeds": (0,),
                                              **arguments})


@pytest.mark.parametrize(("arguments", "message"), [
    ({"rounds": 10**400}, "rounds must be at most 1,000,000,000, got about 1.00e\\+400"),
    ({"seeds": None}, "seeds must be a sequence"),
    ({"learners": None}, "learners must be a sequence"),
    ({"learners": [None]}, "learners must be one or more of"),
    ({"game": "rps"}, "game must be a MatrixGame"),
    ({"c": "abc"}, "c .*must be a number"),
    ({"engine": "gpu"}, "engine must be one of"),
    ({"callback": 5}, "callback must be a function"),
    ({"per_decade": 10**9}, "per_decade must be at most 1,000"),
])
def test_one_node_experiment_checks_every_parameter_first(no_solving, arguments, message):
    with pytest.raises(ValueError, match=message):
        one_node.one_node_experiment(**{"rounds": 1000, "engine": "python", **arguments})


def test_run_one_node_and_log_checkpoints_refuse_what_would_overflow_or_fail_late():
    game = rock_paper_scissors()
    with pytest.raises(ValueError, match="callback must be a function"):
        one_node.run_one_node(game, "ucb1", 1000, 0, engine="python", callback="print")
    with pytest.raises(ValueError, match="checkpoints must be a sequence"):
        one_node.run_one_node(game, "ucb1", 1000, 0, engine="python", checkpoints=5)
    with pytest.raises(ValueError, match="rounds must be at most"):  # was an OverflowError
        one_node.log_checkpoints(10**400)


def test_stored_experiments_that_cannot_be_read_are_named(tmp_path):
    (tmp_path / "other.json").write_text('{"name": 1}')
    (tmp_path / "broken.json").write_text("{")
    for path in (tmp_path / "missing.json", tmp_path, tmp_path / "other.json",
                 tmp_path / "broken.json"):
        with pytest.raises(ValueError, match=str(path.name)):
            one_node.load_one_node_experiment(path)
        with pytest.raises(ValueError, match=str(path.name)):
            convergence.ConvergenceResult.load(path)
        with pytest.raises(ValueError, match=str(path.name)):
            results.ExperimentResult.load(path)
    for load in (one_node.load_one_node_experiment, convergence.ConvergenceResult.load,
                 results.ExperimentResult.load):
        with pytest.raises(ValueError, match="path must be a file name"):
            load(None)
    with pytest.raises(ValueError, match="text must be a convergence result"):
        convergence.ConvergenceResult.from_json("[1, 2]")


def test_convergence_result_reads_only_what_it_measured():
    result = convergence.convergence_experiment(2, checkpoints=(10,), seeds=(0,),
                                                methods=("duct",))
    with pytest.raises(ValueError, match="method must be one of the methods this result measured"):
        result.median("rm")
    with pytest.raises(ValueError, match="digits must be a whole number from 0 to 15"):
        result.format(digits=-1)
    assert isinstance(result.cards, int)
    # numpy integers are taken as cards, and the result still writes as JSON
    assert convergence.convergence_experiment(np.int64(2), checkpoints=(10,), seeds=(0,),
                                              methods=("duct",)).to_json()


UTTT_EXPERIMENTS = {
    "budget": (tuning.budget_experiment, {"budgets": (10,), "reference": 10}),
    "exploration": (tuning.exploration_experiment, {"cs": (0.5,), "iterations": 10}),
    "win_taking": (tuning.win_taking_experiment, {"iterations": 10}),
    "solver": (tuning.solver_experiment, {"iterations": 10}),
    "reuse": (tuning.reuse_experiment, {"ms": 1.0}),
    "centre": (tuning.centre_experiment, {"iterations": 10}),
    "games_needed": (statistics.games_needed_experiment, {"iterations": 10}),
}


@pytest.mark.parametrize("name", list(UTTT_EXPERIMENTS))
@pytest.mark.parametrize(("arguments", "message"), [
    ({"callback": 5}, "callback must be a function"),
    ({"executor": "pool"}, "executor must be a concurrent.futures.Executor"),
    ({"games": 10**12}, "games must be at most 10,000,000"),
    ({"jobs": 10**6}, "jobs must be at most 1,024"),
    ({"scoring": ["codingame"]}, "scoring must be one of"),
])
def test_every_uttt_experiment_checks_its_common_parameters_before_a_game(
        no_solving, name, arguments, message):
    function, budget = UTTT_EXPERIMENTS[name]
    with pytest.raises(ValueError, match=message):
        function(**{"games": 2, **budget, **arguments})


@pytest.mark.parametrize(("name", "arguments", "message"), [
    ("budget", {"budgets": None}, "budgets must be a sequence"),
    ("budget", {"budgets": (10**400,)}, "each of budgets must be at most 100,000,000"),
    ("budget", {"games_by_budget": "abc"}, "games_by_budget must be a dict"),
    ("budget", {"games_by_budget": {10: 10**12}}, "games in games_by_budget must be at most"),
    ("exploration", {"cs": None}, "cs must be a sequence"),
    ("exploration", {"scales": None}, "scales must be a sequence"),
    ("exploration", {"scales": [["01"]]}, "scales must be one or both"),
    ("win_taking", {"iterations": 10**400}, "each of iterations must be at most"),
    ("solver", {"iterations": None}, "iterations must be a sequence"),
    ("reuse", {"ms": math.inf}, "each of ms must be a number"),
    ("games_needed", {"pairs": None}, "pairs must be a sequence"),
    ("games_needed", {"pairs": [None]}, "pairs must hold pairs"),
    ("games_needed", {"width_games": None}, "width_games must be a sequence"),
    ("games_needed", {"width_games": (10**400,)}, "each of width_games must be at most"),
    ("games_needed", {"widths": None}, "widths must be a sequence"),
    ("games_needed", {"widths": ("wide",)}, "width must be a number"),
])
def test_uttt_experiment_parameters_are_checked_before_a_game(no_solving, name, arguments,
                                                               message):
    function, budget = UTTT_EXPERIMENTS[name]
    with pytest.raises(ValueError, match=message):
        function(**{"games": 2, **budget, **arguments})


def test_uttt_registry_and_paths_answer_with_sentences(tmp_path, capsys):
    with pytest.raises(ValueError, match="budget must be one of quick, full"):
        registry.run_experiment("centre", budget=[])
    with pytest.raises(ValueError, match="unknown experiment"):
        registry.run_experiment(["centre"])
    with pytest.raises(ValueError, match="directory must be a file name"):
        results.experiment_path("budget", 5)
    with pytest.raises(ValueError, match="argv must be a list of strings"):
        registry.main("--quick")
    assert registry.main(["--quick", "--only", "centre", "--jobs", "5000"]) == 2
    assert "--jobs must be from 1 to 1024" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert registry.main(["--quick", "--only", "centre", "--jobs", "1",
                          "--out-dir", str(blocker / "dir")]) == 2
    assert "error: cannot write" in capsys.readouterr().err


def test_the_convergence_command_reads_the_command_line_when_argv_is_none(tmp_path, capsys,
                                                                         monkeypatch):
    out = tmp_path / "convergence.json"
    monkeypatch.setattr(sys, "argv", ["smmcts", "--out", str(out), "--cards", "2",
                                      "--checkpoints", "10", "--seeds", "0", "--methods", "duct"])
    convergence.main(None)
    assert f"written to {out}" in capsys.readouterr().out
    assert json.loads(out.read_text())["cards"] == 2
    # Whatever the command line holds is checked like a list given.
    monkeypatch.setattr(sys, "argv", ["smmcts", "--cards", 2])
    with pytest.raises(ValueError, match="argv must be a list of strings"):
        convergence.main(None)


def test_experiment_commands_refuse_bad_argv_and_unwritable_files(tmp_path, capsys):
    for main in (one_node.main, convergence.main):
        with pytest.raises(ValueError, match="argv must be a list of strings"):
            main("--out x")
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert one_node.main(["--out", str(blocker / "x.json"), "--rounds", "1000", "--seeds", "0",
                          "--engine", "python", "--learners", "ucb1"]) == 2
    assert "error: cannot write" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        convergence.main(["--out", str(blocker / "x.json"), "--cards", "2", "--checkpoints", "10",
                          "--seeds", "0", "--methods", "duct"])
    assert "cannot write" in capsys.readouterr().err


# ----------------------------------------------------------------- 5. not a game state


NOT_A_STATE = object()


@pytest.mark.parametrize("call", [
    lambda s: minimax_value(s, 0),
    lambda s: random_playout_value(s, 0),
    lambda s: random_playout_outcomes(s, 0),
    move_values,
    winning_moves,
    random_playout_move_values,
    reachable_states,
    lambda s: random_playout(s, 0),
    lambda s: flat_monte_carlo(s, 3, 0),
    find_traps,
    lambda s: UCTSearch(iterations=10).search(s),
    lambda s: UCTSearch(iterations=10).choose(s),
], ids=["minimax_value", "random_playout_value", "random_playout_outcomes", "move_values",
        "winning_moves", "random_playout_move_values", "reachable_states", "random_playout",
        "flat_monte_carlo", "find_traps", "search", "choose"])
@pytest.mark.parametrize("state", [NOT_A_STATE, "XX./OO./O.X", None, Goofspiel(2)],
                         ids=["object", "text", "None", "goofspiel"])
def test_searches_of_alternating_games_name_the_expected_type(call, state):
    with pytest.raises(ValueError, match="must be a game position \\(a GameState"):
        call(state)


@pytest.mark.parametrize("call", [
    solve_game, all_states, blind_guarantee, blind_floor,
    lambda s: profile_value(s, uniform_profile),
    lambda s: best_response(s, uniform_profile, 0),
    lambda s: profile_exploitability(s, uniform_profile),
    lambda s: exploit(s, uniform_profile),
    lambda s: uniform_profile(s, 0),
    lambda s: SMMCTS(s),
    lambda s: Smitsimax(s),
    lambda s: random_joint_playout(s, 0),
], ids=["solve_game", "all_states", "blind_guarantee", "blind_floor", "profile_value",
        "best_response", "profile_exploitability", "exploit", "uniform_profile", "SMMCTS",
        "Smitsimax", "random_joint_playout"])
@pytest.mark.parametrize("state", [NOT_A_STATE, TicTacToe(), None], ids=["object", "tictactoe",
                                                                           "None"])
def test_simultaneous_solvers_name_the_expected_type(call, state):
    with pytest.raises(ValueError, match="must be a simultaneous-move game state"):
        call(state)


@pytest.mark.parametrize("state", [NOT_A_STATE, TicTacToe(), None])
def test_board_pictures_name_the_expected_type(state):
    with pytest.raises(ValueError, match="state must be an UltimateTicTacToe position"):
        uttt_board.uttt_figure(state, pyplot=False)
    with pytest.raises(ValueError, match="state must be an UltimateTicTacToe position"):
        uttt_board.draw_uttt(Figure().add_subplot(), state)
    with pytest.raises(ValueError, match="state must be an UltimateTicTacToe position"):
        uttt_board.position_title(state)


# ------------------------------------------------------------------------- 6. widgets


@pytest.mark.parametrize("options", [{"think_ms": "text"}, {"think_ms": "text", "iterations": 10},
                                     {"think_ms": -5, "iterations": 10},
                                     {"think_ms": math.nan, "iterations": 10},
                                     {"think_ms": 0, "iterations": 10}])
def test_a_uttt_match_names_a_bad_think_ms_even_beside_iterations(options):
    with pytest.raises(ValueError, match=r"^think_ms \(milliseconds per reply\) must be "):
        UTTTMatch(**options)
    match = UTTTMatch(iterations=10)
    with pytest.raises(ValueError, match=r"^think_ms \(milliseconds per reply\) must be "):
        match.set_budget(**options)
    assert (match.iterations, match.think_ms) == (10, None)  # a refused budget changes nothing


def test_a_uttt_match_keeps_its_budgets():
    assert (UTTTMatch(think_ms=50.0).think_ms, UTTTMatch(think_ms=50.0).iterations) == (50.0, None)
    assert (UTTTMatch(think_ms=50.0, iterations=10).iterations,
            UTTTMatch(think_ms=None, iterations=10).think_ms) == (10, None)


def test_the_widgets_refuse_a_missing_side_or_starter():
    with pytest.raises(ValueError, match="side must be 'X' \\(moves first\\) or 'O', got None"):
        UTTTWidget(side=None, iterations=10)
    with pytest.raises(ValueError, match="human_side must be 'X'"):
        UTTTMatch(human_side=None, iterations=10)
    with pytest.raises(ValueError, match="bot_starts must be True or False, got None"):
        Sum15Match(bot_starts=None)
    # Truthiness used to decide: the text "no" made the bot start.
    with pytest.raises(ValueError, match="bot_starts must be True or False, got 'no'"):
        Sum15Match(bot_starts="no")
    match = Sum15Match(iterations=10)
    match.new_game(None)  # None still keeps the last choice
    assert match.bot_starts is False
    with pytest.raises(ValueError, match="bot_starts must be True or False"):
        match.new_game("yes")


def test_the_ucb1_table_answers_a_huge_count_with_its_sentence():
    text = ucb1_table.ucb1_result_text([("A", 1, 10**400)])
    assert text.startswith("Cannot score this table:") and "visits of child A" in text
    html = ucb1_table.ucb1_result_html([("A", 1, 10**400)])
    assert 'class="ucb1-error"' in html
    widget = ucb1_table.UCB1TableWidget([("A", 1, 10**400)])
    assert 'class="ucb1-error"' in widget.result.value
    widget.visits_inputs[0].value = 3
    assert "chosen: A" in widget.result.value


@pytest.mark.parametrize("error", [OverflowError("int too large to convert to float"),
                                   TypeError("unsupported operand"),
                                   ZeroDivisionError("float division by zero")])
def test_no_other_exception_of_the_scoring_reaches_the_reader(monkeypatch, error):
    def failing(children, c, parent_visits="sum"):
        raise error

    monkeypatch.setattr(ucb1_table, "ucb1_step", failing)
    assert ucb1_table.ucb1_result_text([("A", 1, 2)]).startswith("Cannot score this table:")
    assert 'class="ucb1-error"' in ucb1_table.ucb1_result_html([("A", 1, 2)])
    assert 'class="ucb1-error"' in ucb1_table.UCB1TableWidget([("A", 1, 2)]).result.value


# ======================================================================= further defects
# --------------------------------------------------------------------------- minimax, flat


def test_players_must_be_whole_numbers():
    for player in (0.0, np.array([0, 1]), "0", None):
        with pytest.raises(ValueError, match="player must be 0 \\(moves first\\) or 1"):
            minimax_value(TRAP, player)
    assert minimax_value(TRAP, np.int64(1)) == minimax_value(TRAP, 1)


def test_check_budget_keeps_the_old_sentence_below_and_names_huge_numbers_briefly():
    with pytest.raises(ValueError, match="iterations must be a whole number >= 1, got 0"):
        check_budget("iterations", 0, 1, 10)
    with pytest.raises(ValueError, match="iterations must be at most 10, got 11"):
        check_budget("iterations", 11, 1, 10)
    with pytest.raises(ValueError) as error:
        check_budget("iterations", 10**400, 1, 10)
    assert len(str(error.value)) < 80 and "about 1.00e+400" in str(error.value)


def test_flat_results_refuse_unknown_moves_and_one_playout_intervals():
    run = flat_monte_carlo(TRAP, 3, seed=0)
    with pytest.raises(ValueError, match="move must be one of the moves of this run"):
        run.mean_of(99)  # was "tuple.index(x): x not in tuple"
    single = flat_monte_carlo(TRAP, 1, seed=0)
    for ask in (single.intervals, single.clearly_worse):  # were NaN intervals and ()
        with pytest.raises(ValueError, match="at least 2 playouts per move"):
            ask()
    with pytest.raises(ValueError, match="z .*must be a number"):
        run.intervals(z=math.inf)


def test_a_flat_result_made_by_hand_must_fit_its_moves():
    results_table = np.array([[1.0, 0.0], [0.5, 0.5]])
    with pytest.raises(ValueError, match="results must have one row per move"):
        FlatMCResult(("a", "b", "c"), 2, results_table, (0.5, 0.5, 0.5), "a")
    with pytest.raises(ValueError, match="means must be a tuple of one mean per move"):
        FlatMCResult(("a", "b"), 2, results_table, (0.5,), "a")
    with pytest.raises(ValueError, match="best_move must be one of the moves"):
        FlatMCResult(("a", "b"), 2, results_table, (0.5, 0.5), "z")
    with pytest.raises(ValueError, match="each mean must be a number in \\[0, 1\\]"):
        FlatMCResult(("a", "b"), 2, results_table, (math.nan, 0.5), "a")


def test_budgets_that_would_not_finish_are_refused_at_once():
    with pytest.raises(ValueError, match="playouts_per_move must be at most 1,000,000"):
        flat_monte_carlo(TRAP, 10**12, seed=0)
    with pytest.raises(ValueError, match="playouts_per_move must be at most 100,000"):
        choice_probabilities([(0.5, 0.5, 0.0)], 10**9)
    with pytest.raises(ValueError, match="iterations must be at most 10,000,000"):
        UCTSearch(iterations=10**400)
    with pytest.raises(ValueError, match="seconds must be a number in \\[0, 86400\\]"):
        UCTSearch(iterations=None, seconds=1e300)
    with pytest.raises(ValueError, match="iterations must be at most 10,000,000"):
        SMMCTS(Goofspiel(2)).run(10**12)
    with pytest.raises(ValueError, match="rounds must be at most 1,000,000"):
        zero_sum.exploit_sequential_tree(rock_paper_scissors(), 10**12)


def test_choice_probabilities_wants_a_sequence_of_triples():
    for outcomes in (None, 5, "abc"):
        with pytest.raises(ValueError, match="outcomes must be a sequence"):
            choice_probabilities(outcomes, 3)
    with pytest.raises(ValueError, match="each outcome \\(win, draw, loss\\) must be a sequence"):
        choice_probabilities([None], 3)


def test_move_table_checks_its_result_its_values_and_its_digits():
    run = flat_monte_carlo(TRAP, 3, seed=0)
    exact, verdicts = random_playout_move_values(TRAP), move_values(TRAP)
    with pytest.raises(ValueError, match="result must be a FlatMCResult"):
        move_table("run")
    with pytest.raises(ValueError, match="random_values must give a value for every move"):
        move_table(run, {0: 0.5})  # was a KeyError
    with pytest.raises(ValueError, match="minimax_values must be 1 \\(win\\), 0.5 \\(draw\\) or 0"):
        move_table(run, exact, {move: 0.7 for move in run.moves})  # was a KeyError
    with pytest.raises(ValueError, match="digits must be a whole number from 0 to 15"):
        move_table(run, digits=-1)
    assert move_table(run, exact, verdicts, digits=15).count("\n") == len(run.moves)


# ------------------------------------------------------------------------------ UCT


def test_the_ucb1_rule_names_a_node_it_cannot_score():
    rule = UCB1Rule()
    with pytest.raises(ValueError, match="needs a node with children and at least one visit"):
        rule(Node(None, None, None))  # was None, then an AttributeError
    unvisited = Node(None, None, None)
    unvisited.children.append(Node(1, 0, unvisited))
    with pytest.raises(ValueError, match="0 visits"):  # was "math domain error"
        rule(unvisited)
    with pytest.raises(ValueError, match="node must be a Node"):
        rule("node")
    with pytest.raises(ValueError, match="child must be a Node"):
        rule.bonus(None, unvisited)
    child = unvisited.children[0]
    child.visits = 1
    with pytest.raises(ValueError, match="parent must have been visited"):
        rule.bonus(child, unvisited)


def test_a_selection_rule_of_ones_own_is_checked():
    with pytest.raises(ValueError, match="selection must be a function node -> child"):
        UCTSearch(iterations=10, selection="ucb1")
    with pytest.raises(ValueError, match="the selection rule must return one of the node's"):
        UCTSearch(iterations=10, selection=lambda node: None).search(TicTacToe())


def test_nodes_shuffles_and_trees_answer_with_sentences():
    with pytest.raises(ValueError, match="parent must be a Node or None"):
        Node(1, 0, "root")
    with pytest.raises(ValueError, match="moves must be a sequence of moves"):
        shuffled(None, 0)
    assert sorted(shuffled([1, 2, 3], 7)) == [1, 2, 3]  # a seed is welcome as a source
    root = UCTSearch(iterations=50, seed=1).search(TicTacToe())
    with pytest.raises(ValueError, match="root must be a Node"):
        format_tree(None)
    with pytest.raises(ValueError, match="depth must be a whole number >= 1"):
        format_tree(root, depth=0)
    with pytest.raises(ValueError, match="rule must have a bonus\\(child, parent\\) method"):
        format_tree(root, rule=max)
    with pytest.raises(ValueError, match="indent must be a string"):
        format_tree(root, indent=4)


def test_format_tree_prints_a_deep_tree_without_recursion():
    root = node = Node(None, None, None)
    for level in range(3000):
        child = Node(level, level % 2, node)
        child.visits = 1
        node.children.append(child)
        node = child
    lines = format_tree(root, depth=3000, top=1).splitlines()
    assert len(lines) == 3000 and lines[-1].startswith(" " * 4 * 2999 + "move 2999")


# ------------------------------------------------------------------- exact simultaneous


def test_profiles_and_solutions_refuse_what_they_cannot_answer():
    solution = solve_game(Goofspiel(2))
    with pytest.raises(ValueError, match="the solution has no mix at"):
        solution(Goofspiel(3), 0)  # was a KeyError
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        solution(Goofspiel(2), 2)
    with pytest.raises(ValueError, match="table must be a dict"):
        TableProfile([1, 2])
    with pytest.raises(ValueError, match="table must map each state to a pair"):
        TableProfile({Goofspiel(2): [0.5, 0.5, 0.5]})
    profile = TableProfile({Goofspiel(2): ([0.5, 0.5], None)})
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        profile(Goofspiel(2), 5)  # was an IndexError
    with pytest.raises(ValueError, match="mix for player 1 .* must be a sequence of probabilities"):
        profile(Goofspiel(2), 1)
    with pytest.raises(ValueError, match="solution must be a GameSolution"):
        equilibrium_with_exploration("solution")
    with pytest.raises(ValueError, match="profile must be a function profile\\(state, player\\)"):
        profile_value(Goofspiel(2), "uniform")
    with pytest.raises(ValueError, match="solution must be the GameSolution of this root"):
        exploit(Goofspiel(2), uniform_profile, solution=solve_game(Goofspiel(3)))


def test_exact_answers_refuse_a_game_too_large_instead_of_running_for_hours(monkeypatch):
    monkeypatch.setattr(backward_induction, "MAX_STATES", 100)
    monkeypatch.setattr(smitsimax, "MAX_STATES", 100)
    for solve in (lambda: solve_game(Goofspiel(4)), lambda: all_states(Goofspiel(4)),
                  lambda: profile_exploitability(Goofspiel(4), uniform_profile),
                  lambda: blind_guarantee(Goofspiel(4)),
                  lambda: Smitsimax(Goofspiel(4), seed=0).run(10).profile()):
        with pytest.raises(ValueError, match="more than 100;"):
            solve()


def test_zero_sum_helpers_check_their_equilibrium():
    game = rock_paper_scissors()
    with pytest.raises(ValueError, match="equilibrium must be an Equilibrium"):
        zero_sum.exploration_floor(game, 0.1, "uniform")
    other = zero_sum.solve_zero_sum(MatrixGame([[1, 2], [3, 4]]))
    with pytest.raises(ValueError, match="equilibrium must be one of this 3x3 game"):
        zero_sum.exploration_floor(game, 0.1, other)


# ------------------------------------------------------------------ SM-MCTS, Smitsimax


def test_simultaneous_search_parts_refuse_the_wrong_things():
    with pytest.raises(ValueError, match="state must be a simultaneous-move game state"):
        SMNode(TicTacToe(), "duct", 1.0, 0.1)
    with pytest.raises(ValueError, match="selection must be one of duct, rm"):
        SMNode(Goofspiel(2), "ucb", 1.0, 0.1)  # was silently regret matching
    final = random_joint_playout(Goofspiel(2), 3)  # a seed is welcome as a generator
    assert final.is_terminal()
    with pytest.raises(ValueError, match="seed must be"):
        random_joint_playout(Goofspiel(2), "rng")
    with pytest.raises(ValueError, match="actions must be a non-empty tuple"):
        AgentNode((), 1.0)
    guarantee = blind_guarantee(Goofspiel(2))
    with pytest.raises(ValueError, match="count \\(moves available\\) must be a whole number"):
        guarantee.mix((), 0)  # was a ZeroDivisionError
    with pytest.raises(ValueError, match="own_moves must be a sequence"):
        guarantee.mix(None, 2)
    assert guarantee.mix(([1],), 2).tolist() == [0.5, 0.5]  # never played: uniform
    search = SMMCTS(Goofspiel(2), seed=0).run(np.int64(5))
    assert type(search.iterations) is int


# --------------------------------------------------------------------------------- views


def test_plots_check_their_functions_sizes_and_data():
    with pytest.raises(ValueError, match="draw must be a function"):
        plotting.LivePlot("draw")
    with pytest.raises(ValueError, match="figsize must be a pair"):
        plotting.LivePlot(lambda fig, data: None, figsize=True)
    with pytest.raises(ValueError, match="each side of figsize"):
        plotting.LivePlot(lambda fig, data: None, figsize=(0, 3))
    with pytest.raises(ValueError, match="min_interval \\(seconds\\) must be a number"):
        plotting.LivePlot(lambda fig, data: None, min_interval=math.nan)
    ax = Figure().add_subplot()
    for stats in (None, "abc", [object()]):
        with pytest.raises(ValueError, match="stats must|each of stats"):
            plotting.draw_root_bars(ax, stats)
    with pytest.raises(ValueError, match="draw must be a function"):
        plotting.widget_bars_png("draw", "note")
    with pytest.raises(ValueError, match="fig must be a matplotlib Figure"):
        regret.draw_regret(None, [])
    with pytest.raises(ValueError, match="results must be a sequence of BanditResult"):
        regret.draw_regret(Figure(), None)
    with pytest.raises(ValueError, match="results must hold BanditResult"):
        regret.draw_regret(Figure(), ["abc"])
    with pytest.raises(ValueError, match="ymax .* must be a number"):
        regret.draw_regret(Figure(), [], ymax="abc")


def test_the_simplex_refuses_what_it_cannot_place():
    for mixes in (10**400, {}, [[1, 0, 0], [0, 1]]):
        with pytest.raises(ValueError, match="mixes must"):
            simplex.simplex_xy(mixes)
    ax = Figure().add_subplot()
    with pytest.raises(ValueError, match="grid \\(lines per side\\) must be a whole number from 0"):
        simplex.draw_simplex(ax, grid=10**400)  # was a hang
    with pytest.raises(ValueError, match="move_names must name the 3 corners"):
        simplex.draw_simplex(ax, None)
    equilibrium = np.full(3, 1 / 3)
    with pytest.raises(ValueError, match="total_rounds must be a whole number"):
        simplex.MixTrace(("a", "b", "c"), equilibrium, None)
    with pytest.raises(ValueError, match="floor \\(a distance\\) must be a number"):
        simplex.MixTrace(("a", "b", "c"), equilibrium, 100, floor=10**400)
    with pytest.raises(ValueError, match="distance_limits must be 0 < low < high"):
        simplex.MixTrace(("a", "b", "c"), equilibrium, 100, distance_limits=(1.0, 0.1))
    trace = simplex.MixTrace(("a", "b", "c"), equilibrium, 100)
    with pytest.raises(ValueError, match="rounds must be a whole number"):
        trace.record(math.inf, equilibrium, equilibrium, 0.1)
    with pytest.raises(ValueError, match="distance must be a number"):
        trace.record(10, equilibrium, equilibrium, None)
    assert trace.rounds == []  # nothing recorded by a refused call
    with pytest.raises(ValueError, match="trace must be a MixTrace"):
        simplex.draw_trace(Figure(), None)


def test_the_uttt_board_refuses_counts_and_moves_it_cannot_draw():
    with pytest.raises(ValueError, match="visits needs moves 0..80 with counts >= 0"):
        uttt_board.visit_counts({1: math.inf})  # was an OverflowError
    with pytest.raises(ValueError, match="visits needs moves 0..80"):
        uttt_board.visit_counts({1: 2.5})  # was silently 2
    assert uttt_board.visit_counts({1: 2.0, np.int64(3): np.int64(4)}) == {1: 2, 3: 4}
    with pytest.raises(ValueError, match="visits must be a dict"):
        uttt_board.visit_counts(None)
    with pytest.raises(ValueError, match="each of visits must be root statistics"):
        uttt_board.visit_counts([None])
    state = UltimateTicTacToe()
    ax = Figure().add_subplot()
    with pytest.raises(ValueError, match="highlight_moves must be a sequence of moves"):
        uttt_board.draw_uttt(ax, state, highlight_moves=True)
    with pytest.raises(ValueError, match="highlight_moves must be moves"):
        uttt_board.draw_uttt(ax, state, highlight_moves=[True])
    with pytest.raises(ValueError, match="ax must be a matplotlib Axes"):
        uttt_board.draw_uttt(None, state)
    with pytest.raises(ValueError, match="figsize must be a pair"):
        uttt_board.uttt_figure(state, figsize=5, pyplot=False)


def test_the_ucb1_table_checks_steps_digits_and_new_rows():
    step = ucb1_table.ucb1_step(ucb1_table.CHAPTER3_CHILDREN)
    for function in (ucb1_table.ucb1_table_rows, ucb1_table.parent_visits_sentence,
                     ucb1_table.choice_sentence):
        with pytest.raises(ValueError, match="step must be a UCB1Step"):
            function(None)
        with pytest.raises(ValueError, match="digits must be at most 17"):
            function(step, 10**6)
    with pytest.raises(ValueError, match="rows must be a sequence"):
        ucb1_table.UCB1TableWidget(None)
    widget = ucb1_table.UCB1TableWidget()
    with pytest.raises(ValueError, match="wins of child D must be a number"):
        widget.add_child(wins="many")  # was a TraitError
    assert len(widget.name_labels) == 3


def test_the_game_widgets_models_name_bad_bots_replies_and_budgets():
    with pytest.raises(ValueError, match="reply must be a BotReply"):
        sum15_reply_text(None)
    with pytest.raises(ValueError, match="mask .* must be a whole number"):
        winning_triples("123")
    with pytest.raises(ValueError, match="must not set bit 0"):
        winning_triples(1)
    with pytest.raises(ValueError, match="figsize must be a pair"):
        sum15_reply_figure(figsize=None, iterations=10)
    with pytest.raises(ValueError, match="iterations must be at most 10,000,000"):
        Sum15Match(iterations=10**12)
    with pytest.raises(ValueError, match="iterations must be at most 10,000,000"):
        UTTTMatch(iterations=10**12)
    with pytest.raises(ValueError, match="bot must be a built bot with choose\\(state\\)"):
        uttt_bot_reply(UltimateTicTacToe(), None)
    with pytest.raises(ValueError, match="has no root_stats"):
        root_child_stats(object())

    class Confused:
        def choose(self, state):
            return "the centre"

        def root_stats(self):
            return [("a", "b")]

    with pytest.raises(ValueError, match="the bot answered 'the centre', which is not a move"):
        uttt_bot_reply(UltimateTicTacToe(), Confused())
    with pytest.raises(ValueError, match="root_stats\\(\\) must give objects with move"):
        root_child_stats(Confused())
    with pytest.raises(ValueError, match="reply must be a UTTTReply"):
        uttt_reply_text("reply")
    with pytest.raises(ValueError, match="figsize must be a pair"):
        uttt_reply_figure(figsize="big", iterations=10)
    reply = sum15_bot_reply(SumToFifteen(), 20, seed=1)
    assert "<- picked" in sum15_reply_text(reply)
    bot = uct_bot_factory()(iterations=20, ms=None, seed=1)
    assert uttt_bot_reply(UltimateTicTacToe(), bot).move in UltimateTicTacToe().legal_moves()


def test_the_shared_widget_base_is_not_a_widget_of_its_own():
    with pytest.raises(ValueError, match="BotMatchWidget is the base of the game widgets"):
        BotMatchWidget(None, "x")


def test_solve_zero_sum_solves_every_accepted_table_of_mixed_sizes():
    # About 2% of such tables once failed inside HiGHS; the solver now retries on the table
    # scaled by its largest entry, which leaves the equilibrium mixes unchanged.
    from mctslib.games.matrix_games import MatrixGame as Table
    from mctslib.search.zero_sum import exploitability as distance

    rng = np.random.default_rng(0)
    solved = 0
    for _ in range(600):
        rows, columns = rng.integers(1, 5, 2)
        payoffs = 10.0 ** rng.uniform(-3, 12, (rows, columns)) * rng.choice([-1, 1], (rows, columns))
        game = Table(payoffs)
        equilibrium = zero_sum.solve_zero_sum(game)
        gap = distance(game, equilibrium.row_strategy, equilibrium.column_strategy)
        assert gap <= 1e-6 * np.max(np.abs(payoffs))
        solved += 1
    assert solved == 600
