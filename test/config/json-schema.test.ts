import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';

import { CONFIG_SCHEMA_ID, configJsonSchema } from '../../src/config/index.js';
import { exampleFiles } from './example-files.js';

describe('configJsonSchema', () => {
  const schema = configJsonSchema() as Record<string, any>;
  const validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);

  it('is a strict draft 2020-12 schema with descriptions', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(CONFIG_SCHEMA_ID);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual([
      'version',
      'defaults',
      'models',
      'tools',
      'mcp_servers',
      'mcp',
      'embedders',
      'knowledge',
      'storage',
      'queue',
      'schedules',
      'agents',
      'server',
      'code',
      'cassette',
    ]);
    expect(schema.properties.cassette.required).toEqual(['path']);
    expect(schema.properties.cassette.properties.mode.enum).toEqual(['live', 'record', 'replay', 'auto']);
    const kb = schema.properties.knowledge.additionalProperties;
    expect(kb.additionalProperties).toBe(false);
    expect(kb.required).toEqual(['sources']);
    const model = schema.properties.models.additionalProperties;
    expect(model.additionalProperties).toBe(false);
    expect(model.required).toEqual(['provider', 'model']);
    expect(model.properties.provider.enum).toContain('openai-compatible');
    expect(model.properties.api_key.description).toMatch(/Never printed/);
    const agent = schema.properties.agents.additionalProperties;
    expect(agent.properties.tool_choice.description).toBeTruthy();
    expect(schema.properties.agents.propertyNames.pattern).toBeTruthy();
    for (const [key, value] of Object.entries<Record<string, unknown>>(agent.properties)) {
      expect(value.description ?? (value.anyOf as unknown[] | undefined), `agents.*.${key}`).toBeTruthy();
    }
  });

  it.each(exampleFiles())('accepts the parsed example %s', (file) => {
    const data = parse(readFileSync(file, 'utf8'));
    const r = validator.safeParse(data);
    expect(r.error?.issues ?? []).toEqual([]);
  });

  it('rejects unknown keys, bad enums and wrong types', () => {
    expect(validator.safeParse({ agents: { a: { instructions: 'x' } } }).success).toBe(true);
    expect(validator.safeParse({ agents: { a: { instructons: 'x' } } }).success).toBe(false);
    expect(validator.safeParse({ storage: { driver: 'oracle' } }).success).toBe(false);
    expect(validator.safeParse({ storage: { url: 'postgres://u@h/db', pool_size: 4 } }).success).toBe(true);
    expect(validator.safeParse({ mcp_servers: { fs: { command: 'npx' } } }).success).toBe(true);
    expect(validator.safeParse({ models: { m: { provider: 'openai', model: 'x', tool_mode: 'xml' } } }).success).toBe(false);
    expect(validator.safeParse({ models: { m: { provider: 'openai' } } }).success).toBe(false);
    expect(validator.safeParse({ agents: { a: { max_steps: 'ten' } } }).success).toBe(false);
  });
});
