"""The verify-tiling runner panel (RunnerPanel) and its parts."""
