"""AI Search Lab's library: portfolio GA, games and their search, route search, and the UI."""
