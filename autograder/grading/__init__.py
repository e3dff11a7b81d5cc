"""Grading a batch: every student × expected notebook, found, repaired, scanned, run in the sandbox and scored.

Modules, by concept:
  batch        one student's notebook, and a whole batch (--jobs)
  precheck     find a student's notebook (a renamed one by its grade_ids) and read it without trusting the file
  repair       restore course cells against the blueprint; every repair becomes a flag
  scan         a static scan of the student's code, for an instructor to review
  plan         the cells the runner executes, as plain Python, and what course cells import
  sandbox      the bubblewrap jail and the cgroups around a run, and how they are taken down
  channel      the signed wire between runner and grader
  runner       runs one notebook inside the sandbox (a standalone file: with channel.py and the catalogue's
               behaviour.py, the only ones it sees)
  session      one run: the job out, signed results in, deadlines kept from outside
  scoring      each test cell's points, the status and the sentence for the student, from the runner's facts
"""
