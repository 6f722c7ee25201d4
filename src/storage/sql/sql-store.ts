import type { Store, StoreInfo } from '../../types/storage/store.js';
import { storeClosed } from '../shared/errors.js';
import { SqlBackgroundRunStore } from './sql-background-runs.js';
import type { SqlBackend } from './sql-client.js';
import { SqlCounterStore, SqlLeaseStore } from './sql-coordination.js';
import { SqlConversationSearch, SqlMemoryStore } from './sql-memories.js';
import { SqlRunEventLog } from './sql-run-events.js';
import { SqlApprovalStore, SqlCheckpointStore } from './sql-runs.js';
import { type SqlContext, SqlSessionStore } from './sql-sessions.js';
import { SqlArtifactStore, SqlStateStore } from './sql-state.js';

/** A `Store` over any SQL backend: the services are shared SQL, the backend supplies the differences. */
export class SqlStore implements Store {
  readonly info: StoreInfo;
  readonly sessions: SqlSessionStore;
  readonly state: SqlStateStore;
  readonly artifacts: SqlArtifactStore;
  readonly memories: SqlMemoryStore;
  readonly conversations: SqlConversationSearch;
  readonly checkpoints: SqlCheckpointStore;
  readonly approvals: SqlApprovalStore;
  readonly counters: SqlCounterStore;
  readonly leases: SqlLeaseStore;
  readonly backgroundRuns: SqlBackgroundRunStore;
  readonly runEvents: SqlRunEventLog;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly backend: SqlBackend,
    options: { schemaVersion: number; now?: () => Date },
  ) {
    this.info = { driver: backend.name, location: backend.location, schemaVersion: options.schemaVersion };
    const clock = options.now;
    const context: SqlContext = {
      backend,
      now: clock ? () => clock().getTime() : () => Date.now(),
      check: () => {
        if (this.closing) throw storeClosed(backend.location);
      },
    };
    this.sessions = new SqlSessionStore(context);
    this.state = new SqlStateStore(context);
    this.artifacts = new SqlArtifactStore(context);
    this.memories = new SqlMemoryStore(context);
    this.conversations = new SqlConversationSearch(context);
    this.checkpoints = new SqlCheckpointStore(context);
    this.approvals = new SqlApprovalStore(context);
    this.counters = new SqlCounterStore(context);
    this.leases = new SqlLeaseStore(context);
    this.backgroundRuns = new SqlBackgroundRunStore(context);
    this.runEvents = new SqlRunEventLog(context);
  }

  close(): Promise<void> {
    this.closing ??= this.backend.close();
    return this.closing;
  }
}
