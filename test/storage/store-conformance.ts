/**
 * The storage conformance suite: one set of behaviours every backend must show. A backend's
 * test file calls `storeConformance(target)`; the suite opens one store on a fresh location,
 * isolates each test by unique ids, and drops the location at the end.
 */
import { afterAll, beforeAll, describe } from 'vitest';

import { openStore, type Store } from '../../src/storage/index.js';
import { backgroundRunCases } from './conformance/background-runs.js';
import { coordinationCases } from './conformance/coordination.js';
import { memoryCases } from './conformance/memories.js';
import { runCases } from './conformance/runs.js';
import { sessionCases } from './conformance/sessions.js';
import { stateCases } from './conformance/state.js';
import { announceSkip, type Location, type StoreTarget, TestClock } from './support/targets.js';

/** What the case groups get: the open store, its clock, and the target. */
export interface SuiteContext {
  store(): Store;
  clock: TestClock;
  target: StoreTarget;
  location(): Location;
}

/** Registers the conformance suite for one backend. */
export function storeConformance(target: StoreTarget): void {
  announceSkip(target);
  describe.skipIf(Boolean(target.skip))(`store conformance: ${target.name}`, () => {
    const clock = new TestClock();
    let location: Location | undefined;
    let store: Store | undefined;
    beforeAll(async () => {
      location = await target.createLocation();
      store = await openStore({ ...location.options, now: clock.now });
    });
    afterAll(async () => {
      await store?.close();
      await location?.drop();
    });
    const ctx: SuiteContext = { store: () => store!, clock, target, location: () => location! };
    sessionCases(ctx);
    stateCases(ctx);
    memoryCases(ctx);
    runCases(ctx);
    coordinationCases(ctx);
    backgroundRunCases(ctx);
  });
}
