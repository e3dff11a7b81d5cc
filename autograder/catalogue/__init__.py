"""The catalogue of known answers to every exercise: canonical mistakes (autograder/mutants/) and correct
solutions written differently (autograder/alternatives/), with the hostile submissions of autograder/corpus/.

Modules, by concept:
  mutation     wrong-on-purpose and alternative solutions put into the reference notebook, graded in packs: every
               test cell must catch the mistakes and pass the alternatives (used by the tests)
"""
