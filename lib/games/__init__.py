"""The games (one package each), the contract they keep, and the search, arena and drawing."""
