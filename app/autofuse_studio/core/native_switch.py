"""The optional C extension modules of core: each loaded once when it was built, all switched off by one variable.

Every native path keeps a pure-Python (or numpy) twin that gives the same answers; AUTOFUSE_STUDIO_NO_NATIVE=1
(also "true", "yes") makes the twins run, which is how the tests compare both paths.
"""

from __future__ import annotations

import importlib
import logging
import os
from types import ModuleType

NATIVE_DISABLE_ENV = "AUTOFUSE_STUDIO_NO_NATIVE"
_DISABLED = ("1", "true", "yes")


# os.environ's own store and the variable's key in it: one dict look-up a call. os.environ.get encodes the key and
# decodes the value each time (~1 us), and a raw dump's tensors ask once each (12k a run of small ones: ~20 ms).
_STORE: dict[object, object] | None = getattr(os.environ, "_data", None)
_STORE_KEY: object = getattr(os.environ, "encodekey", lambda key: None)(NATIVE_DISABLE_ENV)


def native_disabled() -> bool:
    """True while AUTOFUSE_STUDIO_NO_NATIVE asks for the Python paths (read on each call: tests switch it)."""
    if _STORE is not None and _STORE_KEY is not None:
        held = _STORE.get(_STORE_KEY)
        return held is not None and os.environ.get(NATIVE_DISABLE_ENV, "") in _DISABLED
    return os.environ.get(NATIVE_DISABLE_ENV, "") in _DISABLED


def load_extension(module: str, without: str, log: logging.Logger) -> ModuleType | None:
    """Import the C extension `module`, or None (logged once, saying `without`: what runs instead) when absent."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        log.info("%s unavailable, %s: %s", module.rsplit(".", 1)[-1], without, exc)
        return None
