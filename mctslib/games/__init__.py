"""Rules of games: they know nothing of search (chapter 1 onward)."""

from .base import DRAW, LOSS, WIN, GameState
from .connect_four import ConnectFour
from .hex import Hex
from .subtraction import SubtractionGame
from .sum15 import SumToFifteen
from .tictactoe import TicTacToe
from .uttt import UltimateTicTacToe

__all__ = ["DRAW", "LOSS", "WIN", "ConnectFour", "GameState", "Hex", "SubtractionGame",
           "SumToFifteen", "TicTacToe", "UltimateTicTacToe"]
