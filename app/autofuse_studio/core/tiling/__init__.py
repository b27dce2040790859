"""verify-tiling: scene detection, ABI validation, CMake generation, build and run."""
