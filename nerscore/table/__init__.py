"""The table of pairs and its reducers: the columns beside the entities, the table every path ends in, every derived
result reduced from it once, and the slices."""
