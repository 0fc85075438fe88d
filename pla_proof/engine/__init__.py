"""The one engine that runs every variant.

* :mod:`.rule`: linear rules (the additive variants the compiled loop runs);
* :mod:`.orders`: the selection rules, one definition for every path;
* :mod:`.kernel`: the compiled loop (exact int64, filtered float decisions, float mode);
* :mod:`.drive`: the driver that decides exactly what the loop leaves undecided;
* :mod:`.pyloop`: the per-step path for rules written in Python (and the reference);
* :mod:`.measure`: the proof's vocabulary measured from the run's vectors;
* :mod:`.certificate`: Gordan certificates.
"""
