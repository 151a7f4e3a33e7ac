"""Portfolio optimisation: stock data and its checks, the vectorised GA, the exact optimum."""
