"""Training scripts for fof_env agents."""
