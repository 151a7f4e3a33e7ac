"""Local search: n-queens by hill climbing, annealing, beam, GA and min-conflicts; a portfolio."""
