"""The search algorithms, generic over the game contract of :mod:`lib.games.core`."""
