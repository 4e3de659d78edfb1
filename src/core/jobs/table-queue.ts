/**
 * The queue on both databases: rows are claimed from the job_rows table with a lease, at most
 * `slots` at once on this node (on PostgreSQL every node claims, SKIP LOCKED). A submit in
 * this process wakes the loop; otherwise it looks again every `pollMs` (rows another node or
 * process submitted, leases that ran out, webhooks now due). After a restart the same table
 * is read again, so a job resumes where it stood; rows a dead process held come back once
 * their lease has run out (a clean stop lets them finish). A row being worked on has its lease
 * renewed every third of it, so a render slower than the lease (a loaded machine) is never
 * taken by a second claim while the first is alive: a row is rendered twice only when the
 * node holding it stopped.
 *
 * A row holds its slot while it is rendered, not while its PDF is kept and its outcome
 * recorded: the handler says when the render is over (`rendered`), and the slot takes its next
 * row then, so the store's round trips (many on PostgreSQL) overlap the next render instead of
 * leaving the browser idle (bench/README.md, the job path's cost). At most `slots` more rows may
 * be finishing at once, so a slow database holds the queue back instead of piling up PDFs.
 * Webhooks are looked for on every look but the one a row's render ending starts (a job that a
 * row finished wakes the queue itself), which is every row's.
 *
 * Fair across teams: each free slot goes to the team with work that this node served least
 * recently (round-robin), so one team's 10,000-row job delays another team's job by about
 * one row per slot, not by 10,000. Within a team, older jobs go first. Webhook deliveries
 * are limited per team (WEBHOOKS_PER_TEAM of WEBHOOKS_AT_ONCE on this node), so a team whose
 * receivers never answer holds only its own deliveries back.
 */
import type { ClaimedRow, DueWebhook, JobStore } from './job-types.js';
import type { JobQueue, QueueHandlers } from './job-queue.js';

export interface TableQueueOptions {
  jobs: JobStore;
  slots: number;
  /** How long a claimed row stays this process's without a renewal: how soon a dead process's rows come back. */
  leaseMs: number;
  pollMs?: number;
  onError: (error: unknown) => void;
}

export const WEBHOOKS_AT_ONCE = 8;
/**
 * Rows claimed before a slot is free for them, as the embedded batch keeps one row more than
 * pages at work: a slot whose render ends starts the row in hand at once instead of leaving
 * the browser idle through a claim's round trips (bench/README.md, the job row's profile).
 */
export const ROWS_IN_HAND = 1;
export const WEBHOOKS_PER_TEAM = 2;

export function createTableQueue(options: TableQueueOptions): JobQueue {
  const { jobs, slots, leaseMs, pollMs = 1000 } = options;
  let handlers: QueueHandlers | undefined;
  let stopped = false;
  /** Rows whose render is not over yet (they hold a slot), and rows past it whose outcome is being recorded. */
  let active = 0;
  let finishing = 0;
  /** Rows claimed ahead of a free slot (at most ROWS_IN_HAND), and every claimed row's lease renewal. */
  const hand: ClaimedRow[] = [];
  const renewals = new Map<ClaimedRow, NodeJS.Timeout>();
  const webhooksOf = new Map<number, number>();
  let webhooksActive = 0;
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let pumping = false;
  let again = false;
  /** Whether a look asked for since the current one began should claim webhooks too. */
  let webhooksWanted = false;
  /** When this node last gave a slot to each team (a counter, not a clock): the least recent goes next. */
  const lastServed = new Map<number, number>();
  let turn = 0;

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  /** Up to `free` rows, one team at a time in turn, least recently served first (one store call: one round trip on PostgreSQL). */
  async function claimFairly(free: number): Promise<ClaimedRow[]> {
    try {
      const served = [...lastServed].sort((a, b) => a[1] - b[1]).map(([team]) => team);
      const claimed = await jobs.claimInTurn(free, leaseMs, served);
      for (const claim of claimed) lastServed.set(claim.teamId, ++turn);
      return claimed;
    } catch (error) {
      options.onError(error);
      return [];
    }
  }

  async function claimWebhooks(): Promise<DueWebhook[]> {
    const claimed: DueWebhook[] = [];
    try {
      for (;;) {
        const free = WEBHOOKS_AT_ONCE - webhooksActive - claimed.length;
        if (free <= 0) return claimed;
        const busy = [...webhooksOf].filter(([, n]) => n >= WEBHOOKS_PER_TEAM).map(([team]) => team);
        // At most one per team per call: counted before the next call, so no team passes its limit.
        const due = await jobs.claimWebhooks(free, leaseMs, busy);
        if (due.length === 0) return claimed;
        for (const one of due) webhooksOf.set(one.teamId, (webhooksOf.get(one.teamId) ?? 0) + 1);
        claimed.push(...due);
      }
    } catch (error) {
      // Those claimed already are sent (and their count in webhooksOf released when they end).
      options.onError(error);
      return claimed;
    }
  }

  /** Starts a claimed row in a free slot (its lease renewal runs from its claim to its end). */
  function startRow(claim: ClaimedRow) {
    active++;
    let holdsSlot = true;
    /** The slot is free for the next row; called once, at the render's end or the row's, whichever is first. */
    const freeSlot = () => {
      if (!holdsSlot) return;
      holdsSlot = false;
      active--;
      finishing++;
      // The row in hand takes the slot at once, without waiting for a claim's round trip.
      if (hand.length > 0 && !stopped && 2 * slots - active - finishing > 0) startRow(hand.shift()!);
      void pump(false);
    };
    track(
      handlers!
        .row(claim, freeSlot)
        .catch(options.onError)
        .finally(() => {
          clearInterval(renewals.get(claim));
          renewals.delete(claim);
          freeSlot();
          finishing--;
          void pump(false);
        }),
    );
  }

  /** A row claimed but not started, given back at a stop so another node (or the next start) takes it at once. */
  function releaseHeld(claim: ClaimedRow) {
    clearInterval(renewals.get(claim));
    renewals.delete(claim);
    track(jobs.releaseRow(claim, 0).catch(options.onError));
  }

  /** Fills the free slots; runs again whenever a row's render or a delivery ends or a submit arrives. `webhooks`: claim due deliveries too. */
  async function pump(webhooks = true): Promise<void> {
    if (!handlers || stopped) return;
    webhooksWanted ||= webhooks;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        const lookForWebhooks = webhooksWanted;
        webhooksWanted = false;
        // Rows may start while a slot is free and no more than `slots` rows are being recorded.
        const startable = () => Math.min(slots - active, 2 * slots - active - finishing);
        while (hand.length > 0 && startable() > 0) startRow(hand.shift()!);
        // Claimed: what the free slots take now, plus the row kept in hand for the next slot that frees.
        // None while `slots` rows wait to be recorded: a slow database holds the queue back.
        const wanted = 2 * slots - active - finishing > 0 ? Math.max(0, startable()) + ROWS_IN_HAND - hand.length : 0;
        if (wanted > 0) {
          for (const claim of await claimFairly(wanted)) {
            if (stopped) {
              releaseHeld(claim);
              continue;
            }
            const renewal = setInterval(() => void jobs.renewRow(claim, leaseMs).catch(options.onError), Math.max(100, Math.floor(leaseMs / 3)));
            renewals.set(claim, renewal);
            if (startable() > 0) startRow(claim);
            else hand.push(claim);
          }
        }
        if (!lookForWebhooks) continue;
        for (const due of await claimWebhooks()) {
          webhooksActive++;
          track(
            handlers
              .webhook(due)
              .catch(options.onError)
              .finally(() => {
                webhooksActive--;
                const left = (webhooksOf.get(due.teamId) ?? 1) - 1;
                if (left > 0) webhooksOf.set(due.teamId, left);
                else webhooksOf.delete(due.teamId);
                void pump();
              }),
          );
        }
      } while (again && !stopped);
    } catch (error) {
      options.onError(error);
    } finally {
      pumping = false;
    }
  }

  const tick = () => {
    if (stopped) return;
    void pump().finally(() => {
      if (!stopped) timer = setTimeout(tick, pollMs);
    });
  };

  return {
    wake() {
      void pump();
    },
    async start(given) {
      handlers = given;
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const claim of hand.splice(0)) releaseHeld(claim);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
