"""A site of several processes: who owns which table (leases on Redis), requests and sockets forwarded to the owner, the relay of lobby news."""
