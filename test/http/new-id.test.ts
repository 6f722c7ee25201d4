import { describe, expect, it } from 'vitest';

import { newId } from '../../src/http/new-id.js';

describe('newId', () => {
  it('makes distinct RFC 4122 version 4 UUIDs, across pool refills', () => {
    const ids = Array.from({ length: 10_000 }, () => newId()); // the pool holds 4096
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(10_000);
  });
});
