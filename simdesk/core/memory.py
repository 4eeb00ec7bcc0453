"""Giving freed memory back to the system between the long phases of a scan.

The C allocator (glibc's malloc) keeps what the program frees for later allocations: numpy's temporaries
below its mapping threshold (which grows up to 32 MB as large blocks are freed) and those of the pair
search's threads (an arena each) stay counted in the process's resident memory after a phase ends, though
nothing holds them. `release_freed_memory()` asks the allocator to return them (malloc_trim), so a phase that
needs less memory does not inherit the peak of the one before it. Elsewhere (macOS, Windows, another C
library) it does nothing.

    release_freed_memory()   # after the candidate search, before verification
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # another C library (musl has no malloc_trim)
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def release_freed_memory() -> bool:
    """Return the memory this process has freed to the system (glibc); whether anything was returned.
    Takes milliseconds: called between phases, never in a loop."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False
