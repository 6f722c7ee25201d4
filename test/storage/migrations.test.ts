import { describe, expect, it } from 'vitest';

import { SCHEMA_VERSION } from '../../src/storage/index.js';
import { mysqlMigrations } from '../../src/storage/mysql/migrations.js';
import { POSTGRES_MIGRATIONS } from '../../src/storage/postgres/migrations.js';
import { SQLITE_MIGRATIONS } from '../../src/storage/sqlite/migrations.js';

describe('migrations', () => {
  it('every SQL driver has migrations 1..SCHEMA_VERSION, the same names in the same order', () => {
    const drivers = { sqlite: SQLITE_MIGRATIONS, postgres: POSTGRES_MIGRATIONS, mysql: mysqlMigrations('utf8mb4_bin') };
    const expected = Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1);
    for (const [driver, migrations] of Object.entries(drivers)) {
      expect(
        migrations.map((m) => m.version),
        driver,
      ).toEqual(expected);
      expect(
        migrations.map((m) => m.name),
        driver,
      ).toEqual(SQLITE_MIGRATIONS.map((m) => m.name));
      for (const m of migrations) expect(m.statements.length, `${driver} v${m.version}`).toBeGreaterThan(0);
    }
  });
});
