"""Scaling out: who is in the class, grading it on several machines, and handing the scores to nbgrader.

Modules, by concept:
  roster      the students of a submitted folder, the assignments expected of them, warnings about its layout
  shard       --shard K/N: a student's machine, decided by a hash of the folder name
  merge       the shards of one grading put back together, as one run would have written them
  gradebook   a run's scores into the course's nbgrader gradebook (to-gradebook), for `nbgrader export`
"""
