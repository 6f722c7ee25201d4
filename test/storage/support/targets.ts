/**
 * Where the conformance suite runs: each target creates a fresh, private location (a temp file,
 * a random Postgres schema, a random MySQL database) and drops it afterwards, so runs never see
 * each other's data. Postgres and MySQL targets are skipped, saying why, when their URL is unset.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { StoreOptions } from '../../../src/storage/index.js';

export interface Location {
  options: StoreOptions;
  /** Runs raw SQL (not for the memory target). */
  exec(sql: string): Promise<void>;
  /** Rows of a raw SQL query (not for the memory target). */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

export interface StoreTarget {
  name: string;
  driver: StoreOptions['driver'];
  /** Set when the target cannot run here: the reason, printed once. */
  skip?: string;
  createLocation(): Promise<Location>;
}

export const POSTGRES_URL = process.env.CORVID_TEST_POSTGRES_URL;
export const MYSQL_URL = process.env.CORVID_TEST_MYSQL_URL;

const randomName = () => `corvid_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

/** Prints why a suite is skipped (visible in the test output). */
export function announceSkip(target: StoreTarget): void {
  if (target.skip) console.log(`[storage] ${target.name} suites skipped: ${target.skip}`);
}

export const memoryTarget: StoreTarget = {
  name: 'memory',
  driver: 'memory',
  async createLocation() {
    return { options: { driver: 'memory' }, exec: async () => undefined, rows: async () => [], drop: async () => undefined };
  },
};

export const sqliteTarget: StoreTarget = {
  name: 'sqlite',
  driver: 'sqlite',
  async createLocation() {
    const dir = mkdtempSync(join(tmpdir(), 'corvid-store-'));
    const path = join(dir, 'nested', 'corvid.db');
    return {
      options: { driver: 'sqlite', path },
      async exec(sql) {
        const Database = (await import('better-sqlite3')).default;
        const db = new Database(path);
        try {
          db.exec(sql);
        } finally {
          db.close();
        }
      },
      async rows(sql) {
        const Database = (await import('better-sqlite3')).default;
        const db = new Database(path, { readonly: true });
        try {
          return db.prepare(sql).all() as Record<string, unknown>[];
        } finally {
          db.close();
        }
      },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

async function pgExec(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(sql);
    // Several statements give one result each: the last one's rows.
    return (Array.isArray(result) ? result[result.length - 1] : result).rows;
  } finally {
    await client.end();
  }
}

export const postgresTarget: StoreTarget = {
  name: 'postgres',
  driver: 'postgres',
  skip: POSTGRES_URL ? undefined : 'CORVID_TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test; .ci/run sets it)',
  async createLocation() {
    const url = POSTGRES_URL!;
    const schema = randomName();
    return {
      options: { driver: 'postgres', url, schema },
      exec: async (sql) => void (await pgExec(url, `SET search_path TO ${schema}; ${sql}`)),
      rows: (sql) => pgExec(url, `SET search_path TO ${schema}; ${sql}`),
      drop: async () => void (await pgExec(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`)),
    };
  },
};

async function mysqlExec(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const mysql = (await import('mysql2/promise')).default;
  const conn = await mysql.createConnection({ uri: url, multipleStatements: true });
  try {
    const [rows] = await conn.query(sql);
    return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
  } finally {
    await conn.end();
  }
}

/** The URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export const mysqlTarget: StoreTarget = {
  name: 'mysql',
  driver: 'mysql',
  skip: MYSQL_URL ? undefined : 'CORVID_TEST_MYSQL_URL is not set (e.g. mysql://root@127.0.0.1:3306/test; .ci/run sets it)',
  async createLocation() {
    const base = MYSQL_URL!;
    const database = randomName();
    await mysqlExec(base, `CREATE DATABASE ${database} CHARACTER SET utf8mb4`);
    const url = withDatabase(base, database);
    return {
      options: { driver: 'mysql', url },
      exec: async (sql) => void (await mysqlExec(url, sql)),
      rows: (sql) => mysqlExec(url, sql),
      drop: async () => void (await mysqlExec(base, `DROP DATABASE IF EXISTS ${database}`)),
    };
  },
};

/** A controllable clock for stores (`now` option). */
export class TestClock {
  t = Date.UTC(2030, 0, 1, 12, 0, 0);
  readonly now = (): Date => new Date(this.t);
  tick(ms = 1): void {
    this.t += ms;
  }
}

/** A unique name for one test's data. */
export const unique = (prefix: string): string => `${prefix}-${randomBytes(5).toString('hex')}`;
