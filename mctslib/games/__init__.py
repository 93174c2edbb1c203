"""Rules of games: they know nothing of search (chapter 1 onward)."""

from .base import DRAW, LOSS, WIN, GameState
from .connect_four import ConnectFour
from .continuous import ContinuousBanditTree
from .hex import Hex
from .subtraction import SubtractionGame
from .sum15 import SumToFifteen
from .tictactoe import TicTacToe
from .uttt import UltimateTicTacToe

__all__ = ["DRAW", "LOSS", "WIN", "ConnectFour", "ContinuousBanditTree", "GameState", "Hex",
           "SubtractionGame", "SumToFifteen", "TicTacToe", "UltimateTicTacToe"]
