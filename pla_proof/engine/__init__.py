"""The one engine that runs every variant.

* :mod:`.rule`: linear rules (the additive variants the compiled loop runs);
* :mod:`.orders`, :mod:`.shuffle`: the selection rules, one definition for every path;
* :mod:`.kernel`: the compiled loop (exact int64, filtered float decisions, float mode);
* :mod:`.world`: a run's data as the loop sees them, and the exact integers behind;
* :mod:`.drive`: the driver that decides exactly what the loop leaves undecided;
* :mod:`.pyloop`: the per-step path for rules written in Python (and the reference);
* :mod:`.measure`: the proof's vocabulary measured from the run's vectors, as
  :mod:`.exact` values, :mod:`.enclosures` or :mod:`.residues`;
* :mod:`.evaluate`: the compiled evaluation of the proof's relations on those values;
* :mod:`.certificate`: Gordan certificates;
* :mod:`.scratch`: the scratch arrays a run's loop and monitor reuse from run to run;
* :mod:`.jit`, :mod:`.aot`: the loops compiled by numba on first call, or loaded from
  the module built with the package (:mod:`pla_proof.build_loops` builds it);
* :mod:`.prep`: compiled passes over a data set's values, registered with the data
  layer (:mod:`pla_proof.data.passes`) as the engine is imported.
"""

from . import prep as _prep  # registers the compiled passes

del _prep
