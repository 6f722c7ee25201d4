import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

import { RunLeaseHeldError } from '../errors/run-lease-held-error.js';
import type { Store } from '../types/storage/store.js';

/** How long a run's lease lasts without renewal: a crashed process's runs are free again after it. */
export const RUN_LEASE_TTL_MS = 30_000;
const RENEW_EVERY_MS = RUN_LEASE_TTL_MS / 3;

const HOST = hostname();
const NONCE = randomBytes(4).toString('hex');
/** This process on the leases it holds: host, pid and a random part (then a count per hold). */
const PROCESS = `${HOST}/${process.pid}/${NONCE}`;
let holds = 0;

/** The lease name of a durable run. */
export function runLeaseName(runId: string): string {
  return `run/${runId}`;
}

/** A held run lease: renewed in the background until released. */
export interface RunLease {
  release(): Promise<void>;
}

/**
 * Holds the run's lease while it is executed here, so that nobody else runs it at the same time:
 * another server resuming interrupted runs at start-up, `corvid runs resume`, a second resume call
 * in this process. Renewed every `RUN_LEASE_TTL_MS / 3`. When the process dies its runs can be
 * resumed at once on the same machine (the holder's pid is gone), elsewhere once the lease expires.
 * @throws RunLeaseHeldError when someone else holds it.
 */
export async function holdRunLease(store: Store, runId: string): Promise<RunLease> {
  const name = runLeaseName(runId);
  const holder = `${PROCESS}/${++holds}`;
  if (!(await store.leases.acquire(name, holder, RUN_LEASE_TTL_MS))) {
    // Held by a process of this machine that is gone (killed, crashed): taken over at once rather
    // than after the lease's lifetime. Elsewhere, only expiry tells.
    const current = await store.leases.get(name);
    const taken =
      current !== undefined &&
      deadLocalHolder(current.holder) &&
      (await store.leases.acquire(name, holder, RUN_LEASE_TTL_MS, { replacing: current.holder }));
    if (!taken) throw new RunLeaseHeldError(runId, RUN_LEASE_TTL_MS);
  }
  const timer = setInterval(() => {
    // A failed renewal is tried again at the next tick: the lease lasts three.
    store.leases.acquire(name, holder, RUN_LEASE_TTL_MS).catch(() => undefined);
  }, RENEW_EVERY_MS);
  timer.unref();
  let released: Promise<void> | undefined;
  return {
    release: () =>
      (released ??= (async () => {
        clearInterval(timer);
        await store.leases.release(name, holder).catch(() => false);
      })()),
  };
}

/**
 * Whether a lease holder is a process of this host that no longer runs: another pid that does not
 * exist, or this pid with another random part (an earlier process that had the same pid).
 */
export function deadLocalHolder(holder: string): boolean {
  const [host, pidText, nonce] = holder.split('/');
  const pid = Number(pidText);
  if (host !== HOST || !Number.isInteger(pid) || pid <= 0 || nonce === undefined) return false;
  if (pid === process.pid) return nonce !== NONCE;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // EPERM: it exists, owned by another user.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
