# SPDX-License-Identifier: Apache-2.0
"""docs/python.md's complete example (the UMAP-style graph of fortunes,
against scikit-learn's) runs as written and prints what the page says."""

import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def test_the_fortunes_example_runs_as_written():
    with open(os.path.join(ROOT, "docs", "python.md")) as f:
        page = f.read()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    example = [b for b in blocks if "fortunes.mtx.gz" in b and "sklearn" in b]
    assert len(example) == 1, "the complete example of docs/python.md"
    import gxbdist
    env = dict(os.environ)
    if os.path.exists(gxbdist.library_path):    # else a name the loader finds
        env["GXBDIST_LIBRARY"] = os.path.abspath(gxbdist.library_path)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    run = subprocess.run([sys.executable, "-c", example[0]], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "(15217, 15217) 228255 float32" in out
    agree = float(re.search(r"rows that agree: ([0-9.]+)", out).group(1))
    assert agree >= 0.999
    assert "Computers are not intelligent" in out
    # progress=True drew its bar to the end
    assert "15217/15217 rows" in run.stderr
