"""Shipped files: our static assets, the start-up stdlib and snapshot, xz downloads, the offline manifest."""
