"""Search over positions with every card known: the exact solver (:mod:`solver`) and its
optional compiled kernel (:mod:`kernel`, numba), checked against it."""
