"""Route search: graphs and maps, the textbook best-first search and its fast kernel."""
