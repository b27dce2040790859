"""Compare on a Dask cluster where the dumps live: scheduler address, path maps, worker tasks, the client run."""
