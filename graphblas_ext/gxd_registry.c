//------------------------------------------------------------------------------
// graphblas_ext/gxd_registry.c: semirings and descriptors gxbdist knows
//------------------------------------------------------------------------------

// A GrB_Semiring cannot carry extra fields, so gxbdist remembers the ones it
// made (metric semirings, NAMM semirings) by address, together with their
// multiply operator and their monoid, a private copy that no user semiring
// can hold: a user's semiring that reuses the address of a freed one is not
// mistaken for it.  Descriptors marked annihilator-free are remembered by
// address.

#include "gxd_internal.h"
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER ;
static gxd_sr_entry *entries = NULL ;
static int64_t nentries = 0, capacity = 0 ;
static GrB_Descriptor *marked = NULL ;
static int64_t nmarked = 0, mcapacity = 0 ;
static GrB_Monoid *owned = NULL ;
static int64_t nowned = 0, ocapacity = 0 ;

static bool grow (void **array, int64_t *cap, int64_t need, size_t size)
{
    if (need <= *cap) return true ;
    int64_t c = (*cap > 0) ? 2 * (*cap) : 64 ;
    void *a = realloc (*array, c * size) ;
    if (a == NULL) return false ;
    *array = a ; *cap = c ;
    return true ;
}

GrB_Info GXD_registry_add (const gxd_sr_entry *e)
{
    pthread_mutex_lock (&lock) ;
    // a new semiring at the address of a freed one replaces its entry
    int64_t t = 0 ;
    while (t < nentries && entries [t].semiring != e->semiring) t++ ;
    bool ok = (t < nentries)
        || grow ((void **) &entries, &capacity, nentries + 1, sizeof (gxd_sr_entry)) ;
    if (ok)
    {
        entries [t] = *e ;
        if (t == nentries) nentries++ ;
    }
    pthread_mutex_unlock (&lock) ;
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
    for (int64_t t = 0 ; t < nentries && !found ; t++)
    {
        if (entries [t].semiring == s && entries [t].mult == mult
            && entries [t].add == add)
        {
            *e = entries [t] ;
            found = true ;
        }
    }
    pthread_mutex_unlock (&lock) ;
    return found ;
}

void GXD_registry_remove (GrB_Semiring s)
{
    pthread_mutex_lock (&lock) ;
    for (int64_t t = 0 ; t < nentries ; t++)
    {
        if (entries [t].semiring == s) entries [t] = entries [--nentries] ;
    }
    pthread_mutex_unlock (&lock) ;
}

void GXD_registry_clear (void)
{
    pthread_mutex_lock (&lock) ;
    free (entries) ; entries = NULL ; nentries = 0 ; capacity = 0 ;
    free (marked) ; marked = NULL ; nmarked = 0 ; mcapacity = 0 ;
    for (int64_t t = 0 ; t < nowned ; t++) GrB_Monoid_free (&owned [t]) ;
    free (owned) ; owned = NULL ; nowned = 0 ; ocapacity = 0 ;
    pthread_mutex_unlock (&lock) ;
}

// a new monoid with add's operator and identity, of add's built-in type
static GrB_Info monoid_copy (GrB_Monoid *copy, GrB_Monoid add)
{
    #define GXD_FREE_ALL ;
    GrB_BinaryOp op ;
    GrB_Type type ;
    union { bool b ; int8_t i8 ; uint8_t u8 ; int16_t i16 ; uint16_t u16 ;
        int32_t i32 ; uint32_t u32 ; int64_t i64 ; uint64_t u64 ; float f ;
        double d ; double pad [4] ; } id ;
    GXD_TRY (GxB_Monoid_operator (&op, add)) ;
    GXD_TRY (GxB_BinaryOp_ztype (&type, op)) ;
    GXD_TRY (GxB_Monoid_identity (&id, add)) ;
    GrB_Info info ;
    if      (type == GrB_BOOL)   info = GrB_Monoid_new_BOOL   (copy, op, id.b) ;
    else if (type == GrB_INT8)   info = GrB_Monoid_new_INT8   (copy, op, id.i8) ;
    else if (type == GrB_UINT8)  info = GrB_Monoid_new_UINT8  (copy, op, id.u8) ;
    else if (type == GrB_INT16)  info = GrB_Monoid_new_INT16  (copy, op, id.i16) ;
    else if (type == GrB_UINT16) info = GrB_Monoid_new_UINT16 (copy, op, id.u16) ;
    else if (type == GrB_INT32)  info = GrB_Monoid_new_INT32  (copy, op, id.i32) ;
    else if (type == GrB_UINT32) info = GrB_Monoid_new_UINT32 (copy, op, id.u32) ;
    else if (type == GrB_INT64)  info = GrB_Monoid_new_INT64  (copy, op, id.i64) ;
    else if (type == GrB_UINT64) info = GrB_Monoid_new_UINT64 (copy, op, id.u64) ;
    else if (type == GrB_FP32)   info = GrB_Monoid_new_FP32   (copy, op, id.f) ;
    else if (type == GrB_FP64)   info = GrB_Monoid_new_FP64   (copy, op, id.d) ;
    else info = GrB_Monoid_new_UDT (copy, op, &id) ;
    return info ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_monoid_private (GrB_Monoid *copy, GrB_Monoid add)
{
    #define GXD_FREE_ALL GrB_Monoid_free (copy) ;
    GXD_TRY (monoid_copy (copy, add)) ;
    pthread_mutex_lock (&lock) ;
    bool ok = grow ((void **) &owned, &ocapacity, nowned + 1, sizeof (GrB_Monoid)) ;
    if (ok) owned [nowned++] = *copy ;
    pthread_mutex_unlock (&lock) ;
    if (!ok) GXD_FAIL (GrB_OUT_OF_MEMORY, "out of memory (monoid registry)") ;
    return GrB_SUCCESS ;
    #undef GXD_FREE_ALL
}

GrB_Info GXD_desc_mark (GrB_Descriptor d, bool on)
{
    pthread_mutex_lock (&lock) ;
    int64_t t = 0 ;
    while (t < nmarked && marked [t] != d) t++ ;
    bool ok = true ;
    if (on && t == nmarked)
    {
        ok = grow ((void **) &marked, &mcapacity, nmarked + 1,
            sizeof (GrB_Descriptor)) ;
        if (ok) marked [nmarked++] = d ;
    }
    else if (!on && t < nmarked)
    {
        marked [t] = marked [--nmarked] ;
    }
    pthread_mutex_unlock (&lock) ;
    return ok ? GrB_SUCCESS
        : GXD_error (GrB_OUT_OF_MEMORY, "out of memory (descriptor registry)") ;
}

bool GXD_desc_marked (GrB_Descriptor d)
{
    if (d == NULL) return false ;
    pthread_mutex_lock (&lock) ;
    bool found = false ;
    for (int64_t t = 0 ; t < nmarked && !found ; t++) found = (marked [t] == d) ;
    pthread_mutex_unlock (&lock) ;
    return found ;
}
