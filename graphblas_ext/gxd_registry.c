// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// graphblas_ext/gxd_registry.c: semirings and descriptors gxbdist knows
//------------------------------------------------------------------------------

// A GrB_Semiring cannot carry extra fields, so gxbdist remembers the ones it
// made (metric semirings, NAMM semirings) by address, together with their
// multiply operator and their monoid.  A NAMM or Minkowski semiring's monoid
// is a private copy owned by its entry, which no user semiring can hold: a
// user's semiring that reuses the address of a freed one is not mistaken
// for it.
//
// GrB_Semiring_free cannot tell gxbdist that a semiring died, but a dead
// one is recognised when its address comes back: a new semiring made at an
// entry's address, or a lookup that finds the address holding another
// monoid or operator, proves the old semiring was freed, and its entry and
// private monoid are released then.  Allocators hand freed blocks of a size
// back first, so create/free cycles keep the table (and memory) flat.  The
// table is an open-addressing hash on the address: lookups cost the same
// whatever the history.
//
// Descriptors marked (annihilator-free, exclude-self) are remembered by
// address with their marks in a short list.  GrB_Descriptor_free cannot
// tell gxbdist either, and a new descriptor often comes back at a freed
// one's address: it must not inherit the marks.  A GrB_Descriptor has no
// field of its own for gxbdist, so the mark leaves a trace in one that
// changes nothing: GxB_DESCRIPTOR_CHUNK, when unset (0, SuiteSparse's
// default), is set to that default's value (64K; the number of threads a
// call uses is the same).  A new descriptor has chunk 0 again: an entry
// whose descriptor no longer holds the recorded chunk is stale, and is
// dropped.  The predefined GrB_DESC_* refuse GxB_Desc_set and are never
// freed: their marks are kept without a trace.

#include "gxd_internal.h"
#include <pthread.h>
#include <stdint.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER ;

// the table: capacity a power of 2, at most half full; removal by backward
// shift keeps probe sequences unbroken without tombstones
static gxd_sr_entry *table = NULL ;
static int64_t tcap = 0, tcount = 0 ;

// chunk: the descriptor's GxB_DESCRIPTOR_CHUNK when marked (traced), and
// whether gxbdist set it (and so puts 0 back when the last mark goes)
#define GXD_DESC_CHUNK_TRACE 65536.0
typedef struct { GrB_Descriptor desc ; int flags ; bool traced, set ; double chunk ; } gxd_mark ;
static gxd_mark *marked = NULL ;
static int64_t nmarked = 0, mcapacity = 0 ;

static int64_t slot_of (GrB_Semiring s, int64_t cap)
{
    uint64_t h = (uint64_t) (uintptr_t) s ;
    h ^= h >> 33 ; h *= 0xff51afd7ed558ccdULL ; h ^= h >> 33 ;
    return (int64_t) (h & (uint64_t) (cap - 1)) ;
}

// the slot holding s, or -1
static int64_t find_slot (GrB_Semiring s)
{
    if (tcap == 0) return -1 ;
    for (int64_t t = slot_of (s, tcap) ; table [t].semiring != NULL ;
         t = (t + 1) & (tcap - 1))
    {
        if (table [t].semiring == s) return t ;
    }
    return -1 ;
}

// empty slot t, freeing its private monoid, and re-seat the entries after it
static void remove_slot (int64_t t)
{
    if (table [t].private_add) GrB_Monoid_free (&table [t].add) ;
    memset (&table [t], 0, sizeof (gxd_sr_entry)) ;
    tcount-- ;
    for (int64_t u = (t + 1) & (tcap - 1) ; table [u].semiring != NULL ;
         u = (u + 1) & (tcap - 1))
    {
        gxd_sr_entry e = table [u] ;
        memset (&table [u], 0, sizeof (gxd_sr_entry)) ;
        int64_t v = slot_of (e.semiring, tcap) ;
        while (table [v].semiring != NULL) v = (v + 1) & (tcap - 1) ;
        table [v] = e ;
    }
}

static bool grow (void)
{
    if (2 * (tcount + 1) <= tcap) return true ;
    int64_t cap = (tcap > 0) ? 2 * tcap : 64 ;
    gxd_sr_entry *t = GXD_calloc (cap, sizeof (gxd_sr_entry)) ;
    if (t == NULL) return false ;
    for (int64_t q = 0 ; q < tcap ; q++)
    {
        if (table [q].semiring == NULL) continue ;
        int64_t v = slot_of (table [q].semiring, cap) ;
        while (t [v].semiring != NULL) v = (v + 1) & (cap - 1) ;
        t [v] = table [q] ;
    }
    GXD_free (table) ;
    table = t ; tcap = cap ;
    return true ;
}

GrB_Info GXD_registry_add (const gxd_sr_entry *e)
{
    pthread_mutex_lock (&lock) ;
    // a new semiring at the address of an entry: that semiring was freed
    int64_t t = find_slot (e->semiring) ;
    if (t >= 0) remove_slot (t) ;
    bool ok = grow () ;
    if (ok)
    {
        t = slot_of (e->semiring, tcap) ;
        while (table [t].semiring != NULL) t = (t + 1) & (tcap - 1) ;
        table [t] = *e ;
        tcount++ ;
    }
    pthread_mutex_unlock (&lock) ;
    if (!ok && e->private_add)
    {
        GrB_Monoid add = e->add ;
        GrB_Monoid_free (&add) ;
    }
    return ok ? GrB_SUCCESS
        : GXD_error (GrB_OUT_OF_MEMORY, "out of memory (semiring registry)") ;
}

bool GXD_registry_find (GrB_Semiring s, gxd_sr_entry *e)
{
    GrB_BinaryOp mult = NULL ;
    GrB_Monoid add = NULL ;
    if (GxB_Semiring_multiply (&mult, s) != GrB_SUCCESS) return false ;
    if (GxB_Semiring_add (&add, s) != GrB_SUCCESS) return false ;
    bool found = false ;
    pthread_mutex_lock (&lock) ;
    int64_t t = find_slot (s) ;
    if (t >= 0)
    {
        found = (table [t].mult == mult && table [t].add == add) ;
        if (found) *e = table [t] ;
        // another semiring lives at that address now: the entry's is dead
        else remove_slot (t) ;
    }
    pthread_mutex_unlock (&lock) ;
    return found ;
}

void GXD_registry_remove (GrB_Semiring s)
{
    pthread_mutex_lock (&lock) ;
    int64_t t = find_slot (s) ;
    if (t >= 0) remove_slot (t) ;
    pthread_mutex_unlock (&lock) ;
}

int64_t GXD_registry_size (void)
{
    pthread_mutex_lock (&lock) ;
    int64_t n = tcount ;
    pthread_mutex_unlock (&lock) ;
    return n ;
}

void GXD_registry_clear (void)
{
    pthread_mutex_lock (&lock) ;
    for (int64_t t = 0 ; t < tcap ; t++)
    {
        if (table [t].semiring != NULL && table [t].private_add)
        {
            GrB_Monoid_free (&table [t].add) ;
        }
    }
    GXD_free (table) ; table = NULL ; tcap = 0 ; tcount = 0 ;
    GXD_free (marked) ; marked = NULL ; nmarked = 0 ; mcapacity = 0 ;
    pthread_mutex_unlock (&lock) ;
}

// a new monoid with add's operator and identity, of add's built-in type
GrB_Info GXD_monoid_private (GrB_Monoid *copy, GrB_Monoid add)
{
    #define GXD_FREE_ALL ;
    GrB_BinaryOp op ;
    GrB_Type type ;
    union { bool b ; int8_t i8 ; uint8_t u8 ; int16_t i16 ; uint16_t u16 ;
        int32_t i32 ; uint32_t u32 ; int64_t i64 ; uint64_t u64 ; float f ;
        double d ; GxB_FC32_t c32 ; GxB_FC64_t c64 ; double pad [4] ; } id ;
    (*copy) = NULL ;
    GXD_TRY (GxB_Monoid_operator (&op, add)) ;
    GXD_TRY (GxB_BinaryOp_ztype (&type, op)) ;
    size_t size ;
    GXD_TRY (GxB_Type_size (&size, type)) ;
    if (size > sizeof (id))
    {
        GXD_FAIL (GrB_DOMAIN_MISMATCH, "the monoid's type (%zu bytes) is "
            "larger than gxbdist supports (%zu)", size, sizeof (id)) ;
    }
    GXD_TRY (GxB_Monoid_identity (&id, add)) ;
    if      (type == GrB_BOOL)   GXD_TRY (GrB_Monoid_new_BOOL   (copy, op, id.b))
    else if (type == GrB_INT8)   GXD_TRY (GrB_Monoid_new_INT8   (copy, op, id.i8))
    else if (type == GrB_UINT8)  GXD_TRY (GrB_Monoid_new_UINT8  (copy, op, id.u8))
    else if (type == GrB_INT16)  GXD_TRY (GrB_Monoid_new_INT16  (copy, op, id.i16))
    else if (type == GrB_UINT16) GXD_TRY (GrB_Monoid_new_UINT16 (copy, op, id.u16))
    else if (type == GrB_INT32)  GXD_TRY (GrB_Monoid_new_INT32  (copy, op, id.i32))
    else if (type == GrB_UINT32) GXD_TRY (GrB_Monoid_new_UINT32 (copy, op, id.u32))
    else if (type == GrB_INT64)  GXD_TRY (GrB_Monoid_new_INT64  (copy, op, id.i64))
    else if (type == GrB_UINT64) GXD_TRY (GrB_Monoid_new_UINT64 (copy, op, id.u64))
    else if (type == GrB_FP32)   GXD_TRY (GrB_Monoid_new_FP32   (copy, op, id.f))
    else if (type == GrB_FP64)   GXD_TRY (GrB_Monoid_new_FP64   (copy, op, id.d))
    else if (type == GxB_FC32)   GXD_TRY (GxB_Monoid_new_FC32   (copy, op, id.c32))
    else if (type == GxB_FC64)   GXD_TRY (GxB_Monoid_new_FC64   (copy, op, id.c64))
    else                         GXD_TRY (GrB_Monoid_new_UDT    (copy, op, &id))
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

// entry t's descriptor still holds the chunk recorded when it was marked
// (else it was freed, and another descriptor has its address)
static bool mark_alive (const gxd_mark *e)
{
    if (!e->traced) return true ;
    double c = -1 ;
    return GxB_Desc_get (e->desc, GxB_DESCRIPTOR_CHUNK, &c) == GrB_SUCCESS
        && c == e->chunk ;
}

// the entry of d (stale ones dropped on the way), or nmarked
static int64_t mark_find (GrB_Descriptor d)
{
    int64_t t = 0 ;
    while (t < nmarked && marked [t].desc != d) t++ ;
    if (t < nmarked && !mark_alive (&marked [t]))
    {
        marked [t] = marked [--nmarked] ;
        t = nmarked ;
    }
    return t ;
}

GrB_Info GXD_desc_mark (GrB_Descriptor d, int flag, bool on)
{
    pthread_mutex_lock (&lock) ;
    int64_t t = mark_find (d) ;
    bool ok = true ;
    if (on && t == nmarked)
    {
        if (nmarked == mcapacity)
        {
            int64_t c = (mcapacity > 0) ? 2 * mcapacity : 16 ;
            gxd_mark *a = GXD_malloc (c * sizeof (gxd_mark)) ;
            ok = (a != NULL) ;
            if (ok)
            {
                if (nmarked > 0) memcpy (a, marked, nmarked * sizeof (gxd_mark)) ;
                GXD_free (marked) ;
                marked = a ; mcapacity = c ;
            }
        }
        if (ok)
        {
            // the trace: the chunk as it is, or the default's value where
            // unset; none on a descriptor that refuses it (predefined)
            gxd_mark e = { d, 0, false, false, 0 } ;
            double c = 0 ;
            if (GxB_Desc_get (d, GxB_DESCRIPTOR_CHUNK, &c) == GrB_SUCCESS)
            {
                e.set = (c <= 0) && GxB_Desc_set (d, GxB_DESCRIPTOR_CHUNK,
                    GXD_DESC_CHUNK_TRACE) == GrB_SUCCESS ;
                e.traced = (c > 0) || e.set ;
                e.chunk = e.set ? GXD_DESC_CHUNK_TRACE : c ;
            }
            marked [nmarked++] = e ;
        }
    }
    if (ok && t < nmarked)
    {
        if (on) marked [t].flags |= flag ;
        else marked [t].flags &= ~flag ;
        // a descriptor with no mark left is forgotten, its chunk as it was
        if (marked [t].flags == 0)
        {
            if (marked [t].set) GxB_Desc_set (d, GxB_DESCRIPTOR_CHUNK, (double) 0) ;
            marked [t] = marked [--nmarked] ;
        }
    }
    pthread_mutex_unlock (&lock) ;
    return ok ? GrB_SUCCESS
        : GXD_error (GrB_OUT_OF_MEMORY, "out of memory (descriptor registry)") ;
}

bool GXD_desc_marked (GrB_Descriptor d, int flag)
{
    if (d == NULL) return false ;
    pthread_mutex_lock (&lock) ;
    int64_t t = mark_find (d) ;
    bool found = (t < nmarked) && (marked [t].flags & flag) ;
    pthread_mutex_unlock (&lock) ;
    return found ;
}
