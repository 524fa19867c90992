"""Hypothesis settings for the random hunts: a fixed, quick number of examples in the suite,
or as many as an environment variable asks for a longer hunt by hand."""

from __future__ import annotations

import os
from collections.abc import Callable

from hypothesis import HealthCheck, settings


def scaled(variable: str) -> Callable[[int], settings]:
    """``examples(n)``: settings for ``n`` examples, derandomized so the suite is repeatable;
    ``variable=N`` in the environment runs ``N`` random examples instead."""
    scale = int(os.environ.get(variable, "0"))

    def examples(n: int) -> settings:
        return settings(
            max_examples=scale or n,
            deadline=None,
            derandomize=not scale,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )

    return examples
