"""native_switch: AUTOFUSE_STUDIO_NO_NATIVE read on every call, however it is set or removed."""

from __future__ import annotations

import os

import pytest

from autofuse_studio.core.native_switch import NATIVE_DISABLE_ENV, native_disabled


@pytest.mark.parametrize(("value", "disabled"), [("1", True), ("true", True), ("yes", True), ("0", False),
                                                 ("", False), ("no", False), ("TRUE", False), (" 1", False)])
def test_the_variable_switches_the_native_paths_off(value: str, disabled: bool, monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    monkeypatch.delenv(NATIVE_DISABLE_ENV, raising=False)
    assert native_disabled() is False
    monkeypatch.setenv(NATIVE_DISABLE_ENV, value)
    assert native_disabled() is disabled
    os.environ[NATIVE_DISABLE_ENV] = "1"  # set as a script would, then removed
    assert native_disabled() is True
    del os.environ[NATIVE_DISABLE_ENV]
    assert native_disabled() is False
    os.environ.update({NATIVE_DISABLE_ENV: "yes"})
    assert native_disabled() is True
    os.environ.pop(NATIVE_DISABLE_ENV)
    assert native_disabled() is False
