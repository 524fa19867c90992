"""Fresh-eyes checks of the day's changes: scripts/paired_bots.py's bot options."""

from __future__ import annotations

import pytest

from rummykit.errors import InvalidArgument
from tests.test_paired_bots import script as paired


def test_hard_with_a_weight_of_0_is_a_version_to_compare() -> None:
    # 0 leaves hard's estimate out (its "0: not used"): refused as "must be above 0", the
    # comparison with and without the draw's gain could not be asked for
    pb = paired()
    for name in ("draw_weight", "feed_weight"):
        level, options = pb.parse_bot(f"hard:samples=2,{name}=0")
        assert (level, options) == ("hard", {"samples": 2, name: 0})
        assert getattr(pb.make_bot_of(level, options), name) == 0
        with pytest.raises(InvalidArgument, match="0 or more"):
            pb.parse_bot(f"hard:{name}=-0.5")
    for name in ("samples", "rounds", "budget"):
        with pytest.raises(InvalidArgument, match="above 0"):
            pb.parse_bot(f"hard:{name}=0")
