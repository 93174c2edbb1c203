"""Bit counting for the numba engines: one CPU instruction instead of a table.

Used by :mod:`mctslib.fast.uttt` (the Ultimate Tic-Tac-Toe chapter's engine),
where counting the empty cells of a small board is on the path of every
random move.

numba has no popcount of its own, but LLVM has one (``llvm.ctpop``) that
becomes the processor's ``popcnt`` where there is one, and a short sequence
of shifts and masks elsewhere, so the same code runs on any machine numba
supports. Measured against a 512-entry table look-up in the UTTT random
playout: the table costs a memory load on the chain of dependent steps that
each move is, the instruction does not.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, mask):
    """Number of set bits of an int64 ``mask`` (callable from jit-compiled code only)."""
    if not isinstance(mask, types.Integer):
        return None
    signature = types.int64(mask)

    def codegen(context, builder, sig, args):
        [value] = args
        value = context.cast(builder, value, sig.args[0], types.int64)  # widen small ints
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(ctpop, [value])

    return signature, codegen
