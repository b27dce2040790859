"""Natural order of step and rank names: numbers by value, a total order, hostile digits."""

from __future__ import annotations

import os
import subprocess
import sys

from autofuse_studio.core.sorting import natural_key


def test_numbers_sort_by_value() -> None:
    assert sorted(["10", "2", "1", None, "b2", "b10"], key=natural_key) == [None, "1", "2", "10", "b2", "b10"]


def test_names_equal_as_numbers_still_have_one_order() -> None:
    names = ["12", "0012", "012", "step12", "step0012"]
    assert sorted(names, key=natural_key) == ["0012", "012", "12", "step0012", "step12"]
    assert natural_key("0012") != natural_key("12")


def test_digits_int_refuses_are_text() -> None:
    assert sorted(["a1²", "a1", "a1³", "a١٢"], key=natural_key) == ["a1", "a1²", "a1³", "a١٢"]


def test_the_order_of_a_set_does_not_follow_the_hash_seed() -> None:
    script = ("from autofuse_studio.core.sorting import natural_key;"
              "print(sorted({'12', '0012', '012', '1', '01'}, key=natural_key))")
    seen = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(6)}
    assert len(seen) == 1
