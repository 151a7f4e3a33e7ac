"""Constraint satisfaction: problems, the textbook backtracking search, AC-3, min-conflicts."""
