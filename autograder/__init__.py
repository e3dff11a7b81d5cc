"""Frame by Frame's autograder: student notebooks run in a sandbox by a small trusted runner, scored by the grader.

Packages, by concern (`python -m autograder` is the command line, __main__):
  grading/     grading a batch: find, repair, scan and plan each notebook, run it in the sandbox, score it
  reporting/   reporting it: grades.csv, cells.csv, messages.csv, diagnoses.csv, feedback pages, the class report,
               and the output folder that holds one run
  scaling/     scaling out: the roster of a submitted folder, --shard and merge, nbgrader's gradebook
  catalogue/   the catalogue of canonical mistakes and correct alternatives: mutation machinery that tests the
               tests, and the diagnosis that names a student's mistake by its behaviour
Shared by all: course_root (a temporary nbgrader course root and each notebook's blueprint), invocation (options
named as the user adds them). Beside them: setup_cell (the release notebooks' first cell), lab_config (the
settings of the folder `make lab` serves).
Data: mutants/ (canonical wrong solutions), alternatives/ (correct solutions written differently), corpus/ (broken
and hostile submissions), all graded by the tests; mutants/ is also the catalogue diagnoses name.
"""
