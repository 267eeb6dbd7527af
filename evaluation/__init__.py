"""Evaluation: matches (:mod:`.match`), tournaments (:mod:`.tournament`), tallies, ratings
(:mod:`.ratings`), reports (:mod:`.report`), replays (:mod:`.replay`), demo, fuzzing and benchmarks."""
