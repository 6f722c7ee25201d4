// Builds the full-text index of bench/knowledge-peers.mjs's LanceDB table in a process of its own:
// `node lancedb-fts-index.mjs <database folder>`. On a 2-core machine LanceDB 0.31.0's default CPU pool (one thread per
// core) never finished this build at 100,000 chunks (every thread idle in a futex wait, twice); 4 threads finish it
// in ~10 s. The pool's size is fixed per process and a bigger one slows LanceDB's queries on a loaded machine, so only
// this build gets it.
import * as lancedb from '@lancedb/lancedb';

const db = await lancedb.connect(process.argv[2]);
const table = await db.openTable('chunks');
await table.createIndex('text', { config: lancedb.Index.fts() });
table.close();
db.close();
