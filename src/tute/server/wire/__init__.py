"""What crosses the network: the edge (limits, origins, hosts), the protocol's messages, the sockets, the hub that sends to each viewer, the views sent."""
