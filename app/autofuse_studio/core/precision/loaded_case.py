"""LoadedCase: a case's parsed graphs, fusion mapping and dump indexes, loaded once and planned from."""

from __future__ import annotations

from dataclasses import dataclass

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.ge.model import Model


@dataclass
class LoadedCase:
    """Parsed graphs, fusion mapping and dump indexes, kept so the GUI can re-use them."""

    af_open: Model
    af_close: Model
    mapping: FusionMapping
    open_index: DumpIndex
    close_index: DumpIndex
