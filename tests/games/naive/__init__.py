"""Deliberately naive game engines: independent oracles for the bitboard rules."""
