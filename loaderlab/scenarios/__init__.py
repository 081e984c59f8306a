"""Importable workloads for the dashboard and workshops: datasets workers can unpickle, and ``run``."""
