"""What crosses the network, knowing nothing of a table: the edge (limits, origins,
hosts), the protocol's messages, the hub that sends to each viewer, the views sent."""
