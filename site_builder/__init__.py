"""Derivation Bank site builder: entries/*.yaml -> a static site that computes in the browser."""
