# SPDX-License-Identifier: Apache-2.0
"""pytest set-up: the package from this source tree (python/), the C library
from GXBDIST_LIBRARY (ctest sets it to the build's libgxbdist.so) or the
newest build*/ of the checkout.  Without numpy, scipy or scikit-learn the
whole suite is skipped."""

import os
import sys

import pytest

for _m in ("numpy", "scipy", "sklearn"):
    pytest.importorskip(_m)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def pytest_report_header(config):
    import gxbdist
    from _ref import seed
    return "gxbdist: %s (backend %s), seed %d (GXBDIST_TEST_SEED)" % (
        gxbdist.library_path, gxbdist.active_backend(), seed())
