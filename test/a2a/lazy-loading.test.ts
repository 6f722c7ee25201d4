import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('A2A loads lazily', () => {
  it('the root entry and a remote agent that never ran load no A2A SDK module', () => {
    const dir = mkdtempSync(join(tmpdir(), 'corvid-lazy-'));
    try {
      // A resolve hook that fails any import of the SDK.
      writeFileSync(
        join(dir, 'hooks.mjs'),
        `export async function resolve(spec, ctx, next) {
  if (spec.startsWith('@a2a-js/sdk')) throw new Error('A2A SDK loaded: ' + spec);
  return next(spec, ctx);
}`,
      );
      writeFileSync(
        join(dir, 'register.mjs'),
        `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
      );
      const script = `
        const { RemoteAgent, Agent } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'index.js')).href)});
        const agent = new RemoteAgent({ name: 'far', url: 'http://127.0.0.1:1/' });
        agent.asTool();
        process.stdout.write(JSON.stringify({ kind: agent.kind, agent: typeof Agent }));
      `;
      const out = execFileSync(
        process.execPath,
        ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', script],
        { encoding: 'utf8' },
      );
      expect(JSON.parse(out)).toEqual({ kind: 'remote', agent: 'function' });
      // The hook does catch SDK imports.
      const a2a = pathToFileURL(join(root, 'dist', 'a2a', 'index.js')).href;
      expect(() =>
        execFileSync(
          process.execPath,
          ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', `await import(${JSON.stringify(a2a)})`],
          { encoding: 'utf8', stdio: 'pipe' },
        ),
      ).toThrow(/A2A SDK loaded/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says how to install the SDK when a remote agent runs without it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'corvid-nosdk-'));
    try {
      writeFileSync(
        join(dir, 'hooks.mjs'),
        `export async function resolve(spec, ctx, next) {
  if (spec.startsWith('@a2a-js/sdk')) { const e = new Error("Cannot find package '" + spec + "'"); e.code = 'ERR_MODULE_NOT_FOUND'; throw e; }
  return next(spec, ctx);
}`,
      );
      writeFileSync(
        join(dir, 'register.mjs'),
        `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
      );
      const script = `
        const { RemoteAgent } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'index.js')).href)});
        try { await new RemoteAgent({ name: 'far', url: 'http://127.0.0.1:1/' }).run('hi'); } catch (e) { process.stdout.write(e.name + ': ' + e.message); }
      `;
      const out = execFileSync(
        process.execPath,
        ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', script],
        { encoding: 'utf8' },
      );
      expect(out).toBe(
        'MissingPeerError: Calling an A2A agent needs the optional package @a2a-js/sdk, which is not installed: run "npm install @a2a-js/sdk"',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no source file of the root entry imports the SDK at run time', () => {
    for (const file of ['remote-agent.ts', 'remote-agent-error.ts', 'connect-a2a.ts', 'import-a2a-sdk.ts']) {
      const text = readFileSync(join(root, 'src', 'a2a', 'client', file), 'utf8');
      const runtimeImports = text.split('\n').filter((l) => /^import .*from '@a2a-js\/sdk/.test(l) && !/^import type /.test(l));
      expect(runtimeImports, file).toEqual([]);
    }
  });

  it('a server loads express (the v0.3 HTTP+JSON binding) only on the first v0.3 REST request', () => {
    const dir = mkdtempSync(join(tmpdir(), 'corvid-noexpress-'));
    try {
      // Any import of express fails: serving cards and JSON-RPC must not need it.
      writeFileSync(
        join(dir, 'hooks.mjs'),
        `export async function resolve(spec, ctx, next) {
  if (spec === 'express') throw new Error('express imported');
  return next(spec, ctx);
}`,
      );
      writeFileSync(
        join(dir, 'register.mjs'),
        `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
      );
      const dist = (p: string) => JSON.stringify(pathToFileURL(join(root, 'dist', p)).href);
      const script = `
        const { serve } = await import(${dist('server/index.js')});
        const { Agent } = await import(${dist('index.js')});
        const { ScriptedModel } = await import(${dist('testing/index.js')});
        const agent = new Agent({ name: 'echo', instructions: '-', model: new ScriptedModel(() => ({ text: 'ok' }), { record: false }) });
        const server = await serve({ agents: [agent], port: 0, server: { logging: { level: 'silent' } } });
        try {
          const card = await (await fetch(server.url + '/.well-known/agent-card.json')).json();
          const send = await (await fetch(server.url + '/a2a/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } }) })).json();
          const rest = await fetch(server.url + '/a2a/echo/rest/v1/tasks/missing');
          process.stdout.write(JSON.stringify({ transports: card.additionalInterfaces.map((i) => i.transport), state: send.result.status.state, rest: rest.status, says: (await rest.json()).message }));
        } finally { await server.close(); }
      `;
      const out = JSON.parse(
        execFileSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', script], {
          encoding: 'utf8',
        }),
      );
      // Installed, so advertised; not loaded until asked for (here the import fails, so 501).
      expect(out.transports).toContain('HTTP+JSON');
      expect(out.state).toBe('completed');
      expect(out.rest).toBe(501);
      expect(out.says).toMatch(/optional package express/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is exported as corvid/a2a', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.exports['./a2a']).toEqual({ types: './dist/a2a/index.d.ts', import: './dist/a2a/index.js' });
  });
});
