/* clock.h — the one clock of perftkit: seconds on a monotonic clock, for run times,
 * limits, rates, timeouts and progress. */
#ifndef PERFTKIT_CLOCK_H
#define PERFTKIT_CLOCK_H

/* Seconds since an arbitrary fixed point; never goes back. */
double clock_seconds(void);

#endif
