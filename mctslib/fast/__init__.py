"""Fast engines compiled with numba: twins of the readable reference code.

Each engine here mirrors a readable implementation operation for operation
(same random numbers drawn in the same order, same floating-point arithmetic)
so the two give identical results for the same seed; the tests check it.
Functions are compiled on first use and cached on disk (``cache=True``).
"""
