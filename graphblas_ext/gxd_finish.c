// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_finish.c: C<Mask> = accum (C, T), by GraphBLAS' own rules
//------------------------------------------------------------------------------

// GrB_apply with the identity of T's type has exactly GrB_mxm's output
// semantics (mask, complement, structure, replace, accum, typecast), so
// GraphBLAS itself computes the new C; only the mask and output fields of
// the caller's descriptor are passed on (its transposes applied to A and B).
//
// C is left exactly as it was when anything fails: the new C is built in a
// matrix of gxbdist's own (Z), and its arrays move into C only at the end,
// by unpack and pack, which allocate nothing.

#include "gxd_internal.h"

// C's sparsity control and storage orientation
static GrB_Info layout (GrB_Matrix C, int *control, int *format)
{
    #define GXD_FREE_ALL ;
    GXD_TRY (GxB_Matrix_Option_get (C, GxB_SPARSITY_CONTROL, control)) ;
    GXD_TRY (GxB_Matrix_Option_get (C, GxB_FORMAT, format)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// C = T when T is full, or sparse by row, and of C's type, with no mask and
// no accum, and C may take that form: T's arrays move into C (no copy).  A
// jumbled T stays jumbled, so a kNN result keeps each row in neighbor order
// for a caller that unpacks C with a jumbled flag (GraphBLAS sorts the rows
// by column whenever it needs them sorted).
static GrB_Info move_whole (bool *done, GrB_Matrix C, GrB_Matrix T)
{
    // pack fails only on arguments that these are not; if it did, the
    // unpacked arrays must not leak
    #define GXD_FREE_ALL GXD_free (Tp) ; GXD_free (Tj) ; GXD_free (Tx) ;
    GrB_Index *Tp = NULL, *Tj = NULL ;
    void *Tx = NULL ;
    int sparsity, tformat, control, format ;
    *done = false ;
    GXD_TRY (GxB_Matrix_Option_get (T, GxB_SPARSITY_STATUS, &sparsity)) ;
    GXD_TRY (GxB_Matrix_Option_get (T, GxB_FORMAT, &tformat)) ;
    GXD_TRY (layout (C, &control, &format)) ;
    if (format != GxB_BY_ROW || !(control & sparsity)
        || (sparsity != GxB_FULL && (sparsity != GxB_SPARSE || tformat != GxB_BY_ROW)))
    {
        return GrB_SUCCESS ;
    }
    GrB_Index p_size = 0, j_size = 0, x_size = 0 ;
    bool iso = false, jumbled = false ;
    if (sparsity == GxB_FULL)
    {
        GXD_TRY (GxB_Matrix_unpack_FullR (T, &Tx, &x_size, &iso, NULL)) ;
        GXD_TRY (GxB_Matrix_pack_FullR (C, &Tx, x_size, iso, NULL)) ;
    }
    else
    {
        GXD_TRY (GxB_Matrix_unpack_CSR (T, &Tp, &Tj, &Tx, &p_size, &j_size,
            &x_size, &iso, &jumbled, NULL)) ;
        GXD_TRY (GxB_Matrix_pack_CSR (C, &Tp, &Tj, &Tx, p_size, j_size,
            x_size, iso, jumbled, NULL)) ;
    }
    *done = true ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// move Z's content into C, in the form Z has (no conversion, no allocation)
GrB_Info GXD_output_move (GrB_Matrix C, GrB_Matrix Z)
{
    // as in move_whole: arrays are freed only if a pack failed
    #define GXD_FREE_ALL GXD_free (p) ; GXD_free (h) ; GXD_free (i) ; \
        GXD_free (b) ; GXD_free (x) ;
    GrB_Index *p = NULL, *h = NULL, *i = NULL, nvec = 0, nvals = 0 ;
    GrB_Index p_size = 0, h_size = 0, i_size = 0, x_size = 0 ;
    int8_t *b = NULL ;
    void *x = NULL ;
    int sparsity, format ;
    GXD_TRY (GrB_Matrix_wait (Z, GrB_MATERIALIZE)) ;
    GXD_TRY (GxB_Matrix_Option_get (Z, GxB_SPARSITY_STATUS, &sparsity)) ;
    GXD_TRY (GxB_Matrix_Option_get (Z, GxB_FORMAT, &format)) ;
    bool iso = false, jumbled = false, row = (format == GxB_BY_ROW) ;
    switch (sparsity)
    {
        case GxB_HYPERSPARSE :
            GXD_TRY ((row ? GxB_Matrix_unpack_HyperCSR : GxB_Matrix_unpack_HyperCSC)
                (Z, &p, &h, &i, &x, &p_size, &h_size, &i_size, &x_size, &iso,
                &nvec, &jumbled, NULL)) ;
            GXD_TRY ((row ? GxB_Matrix_pack_HyperCSR : GxB_Matrix_pack_HyperCSC)
                (C, &p, &h, &i, &x, p_size, h_size, i_size, x_size, iso,
                nvec, jumbled, NULL)) ;
            break ;
        case GxB_SPARSE :
            GXD_TRY ((row ? GxB_Matrix_unpack_CSR : GxB_Matrix_unpack_CSC)
                (Z, &p, &i, &x, &p_size, &i_size, &x_size, &iso, &jumbled,
                NULL)) ;
            GXD_TRY ((row ? GxB_Matrix_pack_CSR : GxB_Matrix_pack_CSC)
                (C, &p, &i, &x, p_size, i_size, x_size, iso, jumbled, NULL)) ;
            break ;
        case GxB_BITMAP :
            GXD_TRY ((row ? GxB_Matrix_unpack_BitmapR : GxB_Matrix_unpack_BitmapC)
                (Z, &b, &x, &p_size, &x_size, &iso, &nvals, NULL)) ;
            GXD_TRY ((row ? GxB_Matrix_pack_BitmapR : GxB_Matrix_pack_BitmapC)
                (C, &b, &x, p_size, x_size, iso, nvals, NULL)) ;
            break ;
        default :
            GXD_TRY ((row ? GxB_Matrix_unpack_FullR : GxB_Matrix_unpack_FullC)
                (Z, &x, &x_size, &iso, NULL)) ;
            GXD_TRY ((row ? GxB_Matrix_pack_FullR : GxB_Matrix_pack_FullC)
                (C, &x, x_size, iso, NULL)) ;
            break ;
    }
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_output_new (GrB_Matrix *Z, GrB_Matrix C, bool replaces)
{
    #define GXD_FREE_ALL GrB_Matrix_free (Z) ;
    if (!replaces)
    {
        GXD_TRY (GrB_Matrix_dup (Z, C)) ;
        return GrB_SUCCESS ;
    }
    // C's old entries do not matter: an empty Z with C's type and layout
    int control, format ;
    GrB_Index m, n ;
    GrB_Type ctype ;
    GXD_TRY (GxB_Matrix_type (&ctype, C)) ;
    GXD_TRY (layout (C, &control, &format)) ;
    GXD_TRY (GrB_Matrix_nrows (&m, C)) ;
    GXD_TRY (GrB_Matrix_ncols (&n, C)) ;
    GXD_TRY (GrB_Matrix_new (Z, ctype, m, n)) ;
    GXD_TRY (GxB_Matrix_Option_set (*Z, GxB_FORMAT, format)) ;
    GXD_TRY (GxB_Matrix_Option_set (*Z, GxB_SPARSITY_CONTROL, control)) ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_finish (GrB_Matrix C, GrB_Matrix Mask, GrB_BinaryOp accum,
    GrB_Matrix T, const gxd_desc *d)
{
    #define GXD_FREE_ALL GrB_Descriptor_free (&desc) ; GrB_Matrix_free (&Z) ;
    GrB_Descriptor desc = NULL ;
    GrB_Matrix Z = NULL ;
    GrB_Type type, ctype ;
    GXD_TRY (GxB_Matrix_type (&type, T)) ;
    GXD_TRY (GxB_Matrix_type (&ctype, C)) ;
    bool replaces = (Mask == NULL && accum == NULL) ;
    if (replaces && ctype == type)
    {
        bool done ;
        GXD_TRY (move_whole (&done, C, T)) ;
        if (done) return GrB_SUCCESS ;
    }
    GXD_TRY (GXD_output_new (&Z, C, replaces)) ;
    GXD_TRY (GrB_Descriptor_new (&desc)) ;
    if (d->replace) GXD_TRY (GrB_Descriptor_set (desc, GrB_OUTP, GrB_REPLACE)) ;
    int mask = (d->mask_comp ? GrB_COMP : 0) + (d->mask_struct ? GrB_STRUCTURE : 0) ;
    if (mask != 0)
    {
        GXD_TRY (GrB_Descriptor_set (desc, GrB_MASK, (GrB_Desc_Value) mask)) ;
    }
    GXD_TRY (GrB_Matrix_apply (Z, Mask, accum, GXD_identity_op (type), T, desc)) ;
    GXD_TRY (GXD_output_move (C, Z)) ;
    GXD_FREE_ALL ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}
