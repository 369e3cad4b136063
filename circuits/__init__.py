"""Season circuits: one ranking across an organiser's tournaments (SCORING.md section 11), and each
player's public history. Sits above `phases` (it reads every tournament's final order)."""
