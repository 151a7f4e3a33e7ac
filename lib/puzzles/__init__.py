"""Sliding-tile puzzles (8 and 15): boards, heuristics, the textbook searches and fast paths."""
