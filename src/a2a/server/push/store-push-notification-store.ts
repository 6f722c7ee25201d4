import { randomUUID } from 'node:crypto';

import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { PushNotificationStore, ServerCallContext, StoredPushNotificationConfig } from '@a2a-js/sdk/server';

import { CorvidError } from '../../../errors/corvid-error.js';
import type { TextSealer } from '../../../secrets/index.js';
import type { StateStore } from '../../../types/storage/state.js';
import { callerOf } from '../call-owner.js';
import { pushConfigFor, withoutPushSecrets } from './push-config-view.js';

function key(agent: string, taskId: string): string {
  return `a2a/push/${agent}/${taskId}`;
}

/**
 * One stored config: the config without its secrets, the protocol version it was registered
 * over, who registered it (`callerOf`), and its token and credentials sealed (JSON of
 * `Secrets`). Records written before secrets were sealed hold the token in `config` and no
 * owner; they load as they are.
 */
interface StoredEntry {
  config: unknown;
  wireVersion: string;
  owner?: string;
  sealed?: string;
}

/** What is stored per task: configs by id. */
type StoredValue = Record<string, StoredEntry>;

/** The secret parts of a config. */
interface Secrets {
  token?: string;
  credentials?: string;
}

/** Options of `StorePushNotificationStore`. */
export interface StorePushNotificationStoreOptions {
  /**
   * Encrypts tokens and credentials at rest. Default: Corvid's secret store
   * (`SecretStore.openDefault()`: `$CORVID_HOME` or `~/.corvid`, key from `CORVID_SECRET_KEY` or
   * the key file there), opened when the first secret is saved or read. Every instance sharing
   * the database needs the same key.
   */
  sealer?: () => Promise<TextSealer>;
}

async function defaultSealer(): Promise<TextSealer> {
  const { SecretStore } = await import('../../../secrets/index.js');
  return SecretStore.openDefault();
}

/**
 * Push-notification configs of an agent's tasks in Corvid's key-value state (app scope, one key
 * per task, `a2a/push/<agent>/<taskId>`, so the lookup made for every task event is a point read),
 * with the protocol version each was registered over so a v0.3 webhook keeps receiving v0.3 bodies.
 * Tokens and credentials are stored encrypted (AES-256-GCM, see `options.sealer`); `load` (what
 * get and list answer) gives them only to the caller who registered the config, `loadWithMetadata`
 * (what delivery reads) to everyone.
 */
export class StorePushNotificationStore implements PushNotificationStore {
  private sealerPromise: Promise<TextSealer> | undefined;

  constructor(
    private readonly state: StateStore,
    private readonly agent: string,
    private readonly options: StorePushNotificationStoreOptions = {},
  ) {}

  private sealer(): Promise<TextSealer> {
    if (!this.sealerPromise) {
      const opening = (this.options.sealer ?? defaultSealer)();
      // A failure (e.g. a malformed CORVID_SECRET_KEY) is reported, and tried again next time.
      opening.catch(() => {
        if (this.sealerPromise === opening) this.sealerPromise = undefined;
      });
      this.sealerPromise = opening;
    }
    return this.sealerPromise;
  }

  /** What the sealed secrets of a config are bound to (a sealed value copied elsewhere does not open). */
  private sealContext(taskId: string, configId: string): string {
    return `A2A push config ${this.agent}/${taskId}/${configId}`;
  }

  private async read(taskId: string): Promise<StoredValue> {
    if (!taskId || taskId.length > 150) return {};
    return ((await this.state.get('app', key(this.agent, taskId))) as StoredValue | undefined) ?? {};
  }

  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    if (!config.id) config.id = randomUUID();
    const secrets: Secrets = {};
    if (config.token) secrets.token = config.token;
    if (config.authentication?.credentials) secrets.credentials = config.authentication.credentials;
    const open = withoutPushSecrets({ ...config, taskId });
    const entry: StoredEntry = {
      config: TaskPushNotificationConfig.toJSON(open),
      wireVersion: context.requestedVersion,
      owner: callerOf(context),
    };
    if (secrets.token !== undefined || secrets.credentials !== undefined) {
      entry.sealed = (await this.sealer()).sealText(JSON.stringify(secrets), this.sealContext(taskId, config.id));
    }
    const value = await this.read(taskId);
    value[config.id] = entry;
    await this.state.set('app', key(this.agent, taskId), value);
  }

  /**
   * The configs as `context`'s caller may see them: tokens and credentials only in the configs it
   * registered (and left out when they cannot be decrypted, e.g. with another key).
   */
  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    const caller = callerOf(context);
    const entries = Object.values(await this.read(taskId));
    return Promise.all(
      entries.map(async (entry) => {
        const owner = entry.owner ?? '';
        if (owner !== caller) return pushConfigFor(TaskPushNotificationConfig.fromJSON(entry.config), owner, context);
        try {
          return await this.open(taskId, entry);
        } catch (err) {
          // Secrets that cannot be opened (another key) are left out; delivery reports why.
          if (!(CorvidError.isInstance(err) && err.code.startsWith('secret_'))) throw err;
          return withoutPushSecrets(TaskPushNotificationConfig.fromJSON(entry.config));
        }
      }),
    );
  }

  /** Every config whole (tokens and credentials decrypted), with its protocol version: what delivery reads. */
  async loadWithMetadata(taskId: string, _context?: ServerCallContext): Promise<StoredPushNotificationConfig[]> {
    const entries = Object.values(await this.read(taskId));
    return Promise.all(entries.map(async (entry) => ({ config: await this.open(taskId, entry), wireVersion: entry.wireVersion })));
  }

  /** The config of an entry with its secrets decrypted. */
  private async open(taskId: string, entry: StoredEntry): Promise<TaskPushNotificationConfig> {
    const config = TaskPushNotificationConfig.fromJSON(entry.config);
    if (entry.sealed === undefined) return config;
    const secrets = JSON.parse((await this.sealer()).unsealText(entry.sealed, this.sealContext(taskId, config.id))) as Secrets;
    if (secrets.token !== undefined) config.token = secrets.token;
    if (secrets.credentials !== undefined)
      config.authentication = { scheme: config.authentication?.scheme ?? '', credentials: secrets.credentials };
    return config;
  }

  async delete(taskId: string, _context: ServerCallContext, configId?: string): Promise<void> {
    if (configId === undefined) {
      await this.state.delete('app', key(this.agent, taskId));
      return;
    }
    const value = await this.read(taskId);
    if (!(configId in value)) return;
    delete value[configId];
    if (Object.keys(value).length === 0) await this.state.delete('app', key(this.agent, taskId));
    else await this.state.set('app', key(this.agent, taskId), value);
  }
}
