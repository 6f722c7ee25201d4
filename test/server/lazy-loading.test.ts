import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const SERVER_ONLY =
  /^\s*import\s+(?!type\b)[^;]*?from\s+'(hono(?:\/[^']*)?|@hono\/[^']+|pino|prom-client|@opentelemetry\/[^']+|jose|(?:\.\.\/)+server\/[^']+)'/m;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('the server loads lazily', () => {
  it('no module outside src/server and src/a2a imports hono, pino, prom-client, OpenTelemetry, jose or the server statically', () => {
    const offenders = files(join(root, 'src'))
      .map((f) => relative(root, f))
      .filter((f) => !f.startsWith('src/server/') && !f.startsWith('src/a2a/'))
      .filter((f) => SERVER_ONLY.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('corvid serve reaches the server through a dynamic import, and corvid/server is an entry point', async () => {
    const cmd = readFileSync(join(root, 'src/cli/commands/serve-command.ts'), 'utf8');
    expect(cmd).toMatch(/=> import\('\.\.\/\.\.\/server\/app\/serve\.js'\)/);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.exports['./server']).toEqual({ types: './dist/server/index.d.ts', import: './dist/server/index.js' });
    const api = await import('../../src/server/index.js');
    for (const name of ['serve', 'createServerApp', 'runtimeOf', 'hashApiKey', 'openApiDocument'])
      expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
  });

  it('the OpenAI-compatible API is imported on its first request', () => {
    const mount = readFileSync(join(root, 'src/server/app/openai-mount.ts'), 'utf8');
    expect(mount).toMatch(/import\('\.\.\/openai\/openai-routes\.js'\)/);
    const eager = /^\s*import\s+(?!type\b)[^;]*?from\s+'(?:\.\.?\/)+openai\/(?!openai-error\.js)[^']+'/m;
    const offenders = (readdirSync(join(root, 'src/server'), { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.ts') && eager.test(readFileSync(join(root, 'src/server', f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('OpenTelemetry is imported only when tracing is configured, jose only for JWT auth', () => {
    const serve = readFileSync(join(root, 'src/server/app/serve.ts'), 'utf8');
    expect(serve).not.toMatch(/from '@opentelemetry\/sdk-trace-base'/);
    expect(serve).toMatch(/await import\('\.\.\/observability\/run-tracer\.js'\)/);
    const eager =
      /^\s*import\s+(?!type\b)[^;]*?from\s+'(@opentelemetry\/[^']+|jose|(?:\.\.?\/)+(?:observability\/)?run-tracer\.js|(?:\.\.?\/)+(?:observability\/)?tracing\.js)'/m;
    const offenders = (readdirSync(join(root, 'src/server'), { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.ts') && f !== 'observability/run-tracer.ts' && eager.test(readFileSync(join(root, 'src/server', f), 'utf8')),
    );
    expect(offenders).toEqual([]);
    const tracing = readFileSync(join(root, 'src/server/observability/tracing.ts'), 'utf8');
    expect(tracing).toMatch(/load: \(\) => Promise\.all\(\[import\('@opentelemetry\/sdk-trace-base'\)/);
  });
});
