"""nbgrader configuration: the repository root is the course root.

Loaded by plain `nbgrader ...` commands run here and by `python -m autograder`, which builds a temporary course
root and loads this same file, so the two grade identically.
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
# nbgrader scores a test cell 0 for any stderr output. Only this message is known to be harmless: matplotlib
# prints it once when a fresh config folder has no font cache yet (every sandboxed grading kernel has one).
c.IgnorePattern.enabled = True
c.IgnorePattern.pattern = r"^Matplotlib is building the font cache; this may take a moment\.\s*$"
