import { isAbsolute, relative, resolve } from 'node:path';
import { formatConfigIssue } from '../../errors/config-error.js';
import { EXIT, type CliContext } from '../cli-context.js';
import { colorsFor } from '../colors.js';

function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/**
 * `corvid validate [file]`: every problem of a config file at once (file:line:col  path: message),
 * or "✓ file is valid (N models, M agents)"; `--print-config` prints the resolved config as YAML
 * with secrets masked on stdout (the verdict then goes to stderr). Tools named in the file are
 * only warned about: code-defined tools are registered by programs, which the CLI cannot see.
 */
export async function validateCommand(context: CliContext): Promise<number> {
  const { stdout, stderr, cwd } = context;
  const { validateConfig, printConfig } = await import('../../config/index.js');
  const file = context.positionals[0] ?? context.globals.config;
  const out = colorsFor(stdout, context.globals);
  const err = colorsFor(stderr, context.globals);
  const result = await validateConfig({ path: file, cwd, env: context.env, allowUnknownTools: true });
  const name = result.path ? displayPath(resolve(cwd), result.path) : (file ?? 'config');

  for (const w of result.warnings) stderr.write(`${err.yellow('warning:')} ${formatConfigIssue(w)}\n`);
  if (!result.ok || !result.config) {
    for (const issue of result.issues) stderr.write(`${formatConfigIssue(issue)}\n`);
    const n = result.issues.length;
    stderr.write(`${err.red(`✗ ${name} is invalid: ${n} problem${n === 1 ? '' : 's'}`)}\n`);
    return EXIT.failure;
  }
  const models = Object.keys(result.config.models).length;
  const agents = Object.keys(result.config.agents).length;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const verdict = `is valid (${plural(models, 'model')}, ${plural(agents, 'agent')})`;
  if (context.values['print-config'] === true) {
    // stdout stays pure YAML (`corvid validate --print-config > resolved.yaml`); the verdict goes to stderr.
    stderr.write(`${err.green('✓')} ${name} ${verdict}\n`);
    stdout.write(printConfig(result.config));
  } else stdout.write(`${out.green('✓')} ${name} ${verdict}\n`);
  return EXIT.ok;
}
