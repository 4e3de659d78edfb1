/**
 * How long a generation reservation of the PostgreSQL store holds its unit without being
 * settled (postgres/generation-quota.ts). Apart from the adapter so the service's settings can
 * name the default without loading the database driver.
 *
 * It must outlast the longest render (the render timeout, 30 s by default) with room to spare:
 * a render that outlives its lease still counts when it succeeds, but meanwhile another could
 * have taken its unit. The service refuses a lease that is not longer than its render timeout.
 */
export const DEFAULT_RESERVATION_LEASE_MS = 10 * 60 * 1000;
