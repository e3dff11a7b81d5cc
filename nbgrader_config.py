"""nbgrader configuration: the repository root is the course root.

Loaded by plain `nbgrader ...` commands run here and by `python -m autograder`, which builds a temporary course
root and loads this same file, so the two grade with the same cell timeout in the grade profile (plain nbgrader
honours a COURSE_PROFILE set explicitly). `make lab` writes this file's Execute settings into the folder it serves,
so the student's Validate button runs notebooks the same way.
"""
c = get_config()  # noqa: F821 - injected by traitlets

c.CourseDirectory.course_id = "frame-by-frame"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.CourseDirectory.feedback_directory = "feedback"

# A student who deletes a test cell must lose its points visibly, not be exported as a silent 0.
c.OverwriteCells.add_missing_cells = True
# Every cell finishes in seconds in the grade profile; a minute means a hang, not a slow machine.
c.Execute.timeout = 60
c.Execute.interrupt_on_timeout = True
# Notebooks run in the grade profile (tiny, CPU-only), as under `python -m autograder`, unless COURSE_PROFILE is
# set: the default cpu or gpu profile takes minutes and would hit the timeout. The line runs in the kernel before
# any cell and leaves the user namespace as it found it.
c.Execute.extra_arguments = [
    "--IPKernelApp.exec_lines=import os; os.environ.setdefault('COURSE_PROFILE', 'grade'); del os"]
# nbgrader scores a test cell 0 for any stderr output. Only this message is known to be harmless: matplotlib
# prints it once when a fresh config folder has no font cache yet (every sandboxed grading kernel has one).
c.IgnorePattern.enabled = True
c.IgnorePattern.pattern = r"^Matplotlib is building the font cache; this may take a moment\.\s*$"
