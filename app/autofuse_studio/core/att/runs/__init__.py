"""Run-root analysis (`att analyze`): two runs of a field folder compared, with root causes and archives."""
