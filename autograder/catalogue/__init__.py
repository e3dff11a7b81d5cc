"""The catalogue of known answers to every exercise: canonical mistakes (autograder/mutants/) and correct
solutions written differently (autograder/alternatives/), with the hostile submissions of autograder/corpus/.

Modules, by concept:
  entries      a catalogue file: what the mistake is, the hint, which test cells it fails, its equivalents
  mutation     wrong-on-purpose and alternative solutions put into the reference notebook, graded in packs: every
               test cell must catch the mistakes and pass the alternatives (used by the tests)
  behaviour    the runner's side of a diagnosis: a failing exercise's test cells replayed with each mistake, and
               the mistakes whose behaviour the student's answer reproduces (standalone: it runs in the sandbox)
  diagnosis    the grader's side: what the runner is asked to compare, and what is kept of its answer
  visible      the diagnosis against the visible tests alone, for `make progress`
"""
