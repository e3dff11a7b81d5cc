"""Frame by Frame's autograder: nbgrader run inside a throwaway course root, reported as CSV.

Modules, by concept:
  course_root  build a temporary nbgrader course root from a course's source/ and config, and generate there
  precheck     reject files that are not notebooks before any kernel starts
  grading      grade one student's notebook, and a whole batch of them
  report       write grades.csv and cells.csv
  mutation     wrong-on-purpose solutions that every test cell must catch (used by the tests)
"""
