import os

wanted = {"gradebook.db", "nbgrader_config.py", "autograder", ".git", "ch01_gradient_descent", "submitted",
          "precheck.py", "mutants"}
found, secrets = [], []
for top, dirs, files in os.walk("/"):
    # Everything but the kernel's views and the installed Python packages (public; nbgrader ships test files).
    dirs[:] = [d for d in dirs if os.path.join(top, d) not in ("/proc", "/sys", "/dev") and
               not (d.startswith("python3") and os.path.basename(top) == "lib")]
    found += [os.path.join(top, n) for n in dirs + files if n in wanted or n.startswith(("course-root-", "autograder-"))]
    for name in files:
        if name.endswith((".ipynb", ".db", ".json")):
            try:
                with open(os.path.join(top, name), errors="ignore") as f:
                    text = f.read(10_000_000)
            except OSError:
                continue
            if "BEGIN HIDDEN TESTS" in text or "BEGIN SOLUTION" in text:
                secrets.append(os.path.join(top, name))
print("ESCAPED" if found or secrets else "CONTAINED", found[:5], secrets[:5])
