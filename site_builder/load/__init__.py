"""Loading: YAML files held to their schemas, read into typed entries, presets, fills, plans and versions."""
