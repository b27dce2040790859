"""The run layer: one RunSpec describes a precision run; a Runner (local, host, cluster) runs it as events."""
