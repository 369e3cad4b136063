"""Tournament formats: presets, phases (qualifying, semifinals, final, knockout), their draws, the
bracket and the final standings. Sits above `tournaments` and `tables`: it uses both, neither uses it."""
