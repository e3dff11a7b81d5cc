"""Frame by Frame's autograder: student notebooks run in a sandbox by a small trusted runner, scored by the grader.

Modules, by concept:
  course_root  a temporary nbgrader course root: the assignment generated, and each notebook's blueprint
               (course cells, hidden tests and points, from the gradebook)
  roster       the students of a submitted folder, the assignments expected of them, warnings about its layout
  outdir       an output folder belongs to one run: an earlier run's results are refused or, with --force, replaced
  invocation   options named as the user adds them (ARGS=--force under `make autograde`)
  precheck     find a student's notebook (a renamed one by its grade_ids) and read it without trusting the file
  repair       restore course cells against the blueprint; every repair becomes a flag
  scan         a static scan of the student's code, for an instructor to review
  plan         the cells the runner executes, as plain Python, and what course cells import
  sandbox      the bubblewrap jail and the cgroups around a run, and how they are taken down
  channel      the signed wire between runner and grader
  runner       runs one notebook inside the sandbox (a standalone file, with channel.py the only ones it sees)
  session      one run: the job out, signed results in, deadlines kept from outside
  scoring      each test cell's points, the status and the sentence for the student, from the runner's facts
  feedback     the feedback page per notebook, without hidden tests
  grading      one student's notebook, and a whole batch (--jobs)
  report       grades.csv and cells.csv
  lab_config   the Execute settings for the folder `make lab` serves, so Validate runs notebooks as grading does
  mutation     wrong-on-purpose solutions that every test cell must catch (used by the tests)
Data: mutants/ (canonical wrong solutions), corpus/ (broken and hostile submissions, graded by the tests).
"""
