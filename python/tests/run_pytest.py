# SPDX-License-Identifier: Apache-2.0
"""ctest's entry point: runs the suite with pytest, or exits 77 (ctest's
SKIP_RETURN_CODE) when numpy, scipy, scikit-learn or pytest is missing
(scripts/test.sh installs them: python3-scipy python3-sklearn python3-pytest)."""

import os
import sys

missing = []
for m in ("numpy", "scipy", "sklearn", "pytest"):
    try:
        __import__(m)
    except ImportError:
        missing.append(m)
if missing:
    print("gxbdist python tests skipped: missing %s" % ", ".join(missing))
    sys.exit(77)

import pytest  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", here] + sys.argv[1:]))
