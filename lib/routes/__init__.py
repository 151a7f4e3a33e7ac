"""Route search: graphs and map loaders, the textbook best-first search, its fast kernel, comparisons."""
