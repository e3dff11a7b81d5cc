"""Reporting a batch: what one run writes into its output folder.

Modules, by concept:
  outdir        an output folder belongs to one run: an earlier run's results are refused or, with --force, replaced
  grades        grades.csv and cells.csv (and reading them back)
  messages      messages.csv: why each test cell failed, for the instructor
  feedback      the feedback page per notebook handed in, without hidden tests
  class_report  report.html: the class on one page, for the instructor
"""
