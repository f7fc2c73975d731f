"""Checking: what the schemas cannot say about entries and plans, tolerances, time limits."""
