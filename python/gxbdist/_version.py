# SPDX-License-Identifier: Apache-2.0
# The package's version: the C library's (include/gxbdist.h,
# GXBDIST_VERSION_*), which the package is written against.  pyproject.toml
# reads it from here; a test checks it against the loaded library's.
__version__ = "0.1.0"
