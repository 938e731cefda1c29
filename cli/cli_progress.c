// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// cli/cli_progress.c: a progress bar with rate and ETA on stderr
//------------------------------------------------------------------------------

// The library has no progress callback, so cli_compute runs it on blocks of
// A's rows and reports the rows done after each block.  The bar is drawn only
// on a terminal, and only once the job has run a second: a short job leaves
// no trace, and a log file never receives carriage returns.

#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

double cli_now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec ;
}

void cli_progress_start (cli_progress *bar, bool enabled, int64_t total,
    const char *what)
{
    bar->enabled = enabled ;
    bar->shown = false ;
    bar->t0 = cli_now () ;
    bar->total = total ;
    bar->what = what ;
}

// 12345 -> "12.3k"
static void human (char *s, size_t len, double x)
{
    if (x >= 1e9)      snprintf (s, len, "%.1fG", x / 1e9) ;
    else if (x >= 1e6) snprintf (s, len, "%.1fM", x / 1e6) ;
    else if (x >= 1e4) snprintf (s, len, "%.1fk", x / 1e3) ;
    else               snprintf (s, len, "%.0f", x) ;
}

// seconds -> "m:ss" or "h:mm:ss"
static void clock_text (char *s, size_t len, double t)
{
    long long u = (long long) (t + 0.5) ;
    if (u >= 3600) snprintf (s, len, "%lld:%02lld:%02lld", u / 3600,
        (u / 60) % 60, u % 60) ;
    else snprintf (s, len, "%lld:%02lld", u / 60, u % 60) ;
}

void cli_progress_update (cli_progress *bar, int64_t done)
{
    if (!bar->enabled || bar->total <= 0) return ;
    double elapsed = cli_now () - bar->t0 ;
    if (!bar->shown && (elapsed < 1.0 || done >= bar->total)) return ;

    double frac = (double) done / (double) bar->total ;
    double rate = (elapsed > 0) ? (double) done / elapsed : 0 ;
    char r [32], eta [32], dn [32], tot [32] ;
    human (r, sizeof (r), rate) ;
    human (dn, sizeof (dn), (double) done) ;
    human (tot, sizeof (tot), (double) bar->total) ;
    if (rate > 0) clock_text (eta, sizeof (eta), (bar->total - done) / rate) ;
    else snprintf (eta, sizeof (eta), "?") ;

    // a narrow terminal gets a shorter bar, so the line never wraps
    int width = 30 ;
    struct winsize ws ;
    if (ioctl (STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0
        && ws.ws_col < 80)
    {
        width = (ws.ws_col > 60) ? ws.ws_col - 50 : 10 ;
    }
    char fill [128] ;
    int nfill = (int) (frac * width) ;
    for (int i = 0 ; i < width ; i++) fill [i] = (i < nfill) ? '#' : '.' ;
    fill [width] = '\0' ;
    fprintf (stderr, "\r%s [%s] %3d%% %s/%s rows %s rows/s ETA %s\033[K",
        bar->what, fill, (int) (100 * frac), dn, tot, r, eta) ;
    fflush (stderr) ;
    bar->shown = true ;
}

void cli_progress_end (cli_progress *bar)
{
    if (!bar->shown) return ;
    fprintf (stderr, "\r\033[K") ;
    fflush (stderr) ;
    bar->shown = false ;
}
