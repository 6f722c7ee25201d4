import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll } from 'vitest';

import { openSqliteKnowledgeStore } from '../../src/knowledge/stores/sqlite/sqlite-knowledge-store.js';
import { knowledgeStoreCases } from './support/store-cases.js';

const dir = mkdtempSync(join(tmpdir(), 'corvid-kb-sqlite-conformance-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

knowledgeStoreCases('sqlite', () => openSqliteKnowledgeStore({ path: join(dir, `store-${n++}.db`) }));
