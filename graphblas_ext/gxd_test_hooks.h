// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_test_hooks.h: internal switches for gxbdist's own tests
//------------------------------------------------------------------------------

// Not part of the API (tests include it from the source tree; libgxbdist.so
// does not export these, libgxbdist.a has them): they let the test suite
// reach code paths that real sizes reach only with large data, and results
// that only a bug would give.  The GPU backend's own hook, its tuning
// override (forced strategy, kernel variant, tile sizes), is in
// cuda/gpu_tuning.h: CUDA builds only, used by bench/gpu_bench.cu.

#ifndef GXD_TEST_HOOKS_H
#define GXD_TEST_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// GxB_kNN and GxB_radius_graph: tiles of at most rows x cols (0, 0: sized
// by memory, the default), so tiling and merging run on small inputs
void GXD_neighbors_set_tiles (int64_t rows, int64_t cols) ;

// user operators compiled (gxd_jit.c; the GPU's kernels too): how many
// were compiled and how many came from the disk cache in this process,
// counted once the GPU's whole programs being compiled on threads are
// done; unload them all (the next call finds them on disk again)
void GXD_jit_stats (int64_t *compiles, int64_t *disk_hits) ;
void GXD_jit_clear (void) ;
// the GPU's user kernels (cuda/gpu_nvrtc.cu) as whole programs only (on),
// or first linked with the library's template while the whole program
// compiles on a thread (off, the default); and, once those threads are
// done, how many linked modules were made or read from the disk in this
// process, and how many whole programs took over from them (0 without CUDA)
void GXD_jit_gpu_whole (bool on) ;
void GXD_jit_gpu_tiers (int64_t *linked, int64_t *swaps) ;

// unions whose (+) is PLUS, for operators only GraphBLAS can call
// (gxd_union_plus.c): pairs computed by the rewrite so far in this process,
// and how many of those the union path computed again (not trusted)
void GXD_union_plus_stats (int64_t *pairs, int64_t *redone) ;
// and its row blocks of at most this many pairs, evaluated in chunks of at
// most this many terms (0: the defaults), so that several run on small
// inputs
void GXD_union_plus_set_block (int64_t pairs, int64_t terms) ;
// and f evaluated on the grid of A's and B's distinct values: always where
// they are few enough (1), never (-1), or where it pays (0, the default)
void GXD_union_plus_set_grid (int mode) ;

// unions whose (+) is MIN or MAX (gxd_union_max.c): pairs computed by its
// terms so far in this process (its chunks and grid: the two hooks above)
int64_t GXD_union_max_stats (void) ;

// verify mode's own test: when on, the backend's next results are perturbed
// in one entry (the first computed entry is increased by 1 and doubled)
// before verification and before they reach C
void GXD_set_fault_injection (bool on) ;

#ifdef __cplusplus
}
#endif
#endif
