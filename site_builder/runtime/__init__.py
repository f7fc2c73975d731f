"""The runtime: reading inputs, evaluating formulas, writing results.

Standard library only.  These files are shipped to the browser and imported by Pyodide,
so the page, the build, the CLI and the tests all run this one implementation.
"""
