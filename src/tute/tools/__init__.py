"""Tools around the engine: benchmarks (:mod:`bench`), the conformance runner
(:mod:`conformance`), a printed demo game (:mod:`demo`)."""
