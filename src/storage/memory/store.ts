import type { Store, StoreInfo, StoreOptions } from '../../types/storage/store.js';
import { storeClosed } from '../shared/errors.js';
import { SCHEMA_VERSION } from '../shared/schema.js';
import { MemoryBackgroundRunStore, MemoryRunEventLog } from './background-runs.js';
import { MemoryCounterStore, MemoryLeaseStore } from './coordination.js';
import { MemData } from './data.js';
import { MemoryConversationSearch, MemoryMemoryStore } from './memories.js';
import { MemoryApprovalStore, MemoryCheckpointStore } from './runs.js';
import { type MemContext, MemorySessionStore } from './sessions.js';
import { MemoryArtifactStore, MemoryStateStore } from './state.js';

/**
 * A store that lives in process memory and disappears with it: for tests, examples and
 * short-lived scripts. Same behaviour as the SQL backends (its keyword search ranks with BM25).
 */
export class InMemoryStore implements Store {
  readonly info: StoreInfo = { driver: 'memory', location: 'memory:', schemaVersion: SCHEMA_VERSION };
  readonly sessions: MemorySessionStore;
  readonly state: MemoryStateStore;
  readonly artifacts: MemoryArtifactStore;
  readonly memories: MemoryMemoryStore;
  readonly conversations: MemoryConversationSearch;
  readonly checkpoints: MemoryCheckpointStore;
  readonly approvals: MemoryApprovalStore;
  readonly counters: MemoryCounterStore;
  readonly leases: MemoryLeaseStore;
  readonly backgroundRuns: MemoryBackgroundRunStore;
  readonly runEvents: MemoryRunEventLog;
  private closed = false;

  constructor(options: StoreOptions = {}) {
    const clock = options.now;
    const context: MemContext = {
      data: new MemData(),
      now: clock ? () => clock().getTime() : () => Date.now(),
      location: 'memory:',
      check: () => {
        if (this.closed) throw storeClosed('memory:');
      },
    };
    this.sessions = new MemorySessionStore(context);
    this.state = new MemoryStateStore(context);
    this.artifacts = new MemoryArtifactStore(context);
    this.memories = new MemoryMemoryStore(context);
    this.conversations = new MemoryConversationSearch(context);
    this.checkpoints = new MemoryCheckpointStore(context);
    this.approvals = new MemoryApprovalStore(context);
    this.counters = new MemoryCounterStore(context);
    this.leases = new MemoryLeaseStore(context);
    this.backgroundRuns = new MemoryBackgroundRunStore(context);
    this.runEvents = new MemoryRunEventLog(context);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
