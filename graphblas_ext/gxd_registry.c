//------------------------------------------------------------------------------
// graphblas_ext/gxd_registry.c: semirings and descriptors gxbdist knows
//------------------------------------------------------------------------------

// A GrB_Semiring cannot carry extra fields, so gxbdist remembers the ones it
// made (metric semirings, NAMM semirings) by address, together with their
// multiply operator: a freed semiring whose address is reused by another one
// is not mistaken for it unless the operator is the same too.  Descriptors
// marked annihilator-free are remembered the same way.

#include "gxd_internal.h"
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER ;
static gxd_sr_entry *entries = NULL ;
static int64_t nentries = 0, capacity = 0 ;
static GrB_Descriptor *marked = NULL ;
static int64_t nmarked = 0, mcapacity = 0 ;

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
    if (GxB_Semiring_multiply (&mult, s) != GrB_SUCCESS) return false ;
    bool found = false ;
    pthread_mutex_lock (&lock) ;
    for (int64_t t = 0 ; t < nentries && !found ; t++)
    {
        if (entries [t].semiring == s && entries [t].mult == mult)
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
    pthread_mutex_unlock (&lock) ;
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
