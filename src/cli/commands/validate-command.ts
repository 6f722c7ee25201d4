import { isAbsolute, relative, resolve } from 'node:path';

import type { ConfigFileValidation } from '../../config/load-config.js';
import { formatConfigIssue } from '../../errors/config-error.js';
import { type CliContext, EXIT } from '../cli-context.js';
import { colorsFor } from '../colors.js';

/** The validation plus what loading would find in the tool modules (imports and `module.tool` names). */
async function withToolModules(validation: ConfigFileValidation, cwd: string, real: NodeJS.ProcessEnv): Promise<ConfigFileValidation> {
  const { loadDotEnv } = await import('../../config/index.js');
  const { checkToolModules } = await import('../../runtime/check-tool-modules.js');
  const { dirname } = await import('node:path');
  const { env } = await loadDotEnv({ cwd, configDir: validation.path ? dirname(validation.path) : undefined, env: real });
  const issues = await checkToolModules({ config: validation.config!, path: validation.path, cwd: resolve(cwd), env });
  return issues.length === 0 ? validation : { ...validation, ok: false, issues };
}

function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/**
 * `corvid validate [file]`: every problem of a config file at once (file:line:col  path: message),
 * or "✓ file is valid (N models, M agents)"; `--print-config` prints the resolved config as YAML
 * with secrets masked on stdout (the verdict then goes to stderr). It checks what `corvid run`
 * checks: tool names must be built-in or come from the config's tool modules (which are imported),
 * unless `--allow-unknown-tools` says a program registers them (then they are warnings). An unset
 * `${VAR}` is a warning (the structure is checked without secrets); `--strict` makes it an error.
 */
export async function validateCommand(context: CliContext): Promise<number> {
  const { stdout, stderr, cwd } = context;
  const { validateConfig, printConfig } = await import('../../config/index.js');
  const file = context.positionals[0] ?? context.globals.config;
  const out = colorsFor(stdout, context.globals);
  const err = colorsFor(stderr, context.globals);
  // The CLI cannot see tools a program registers: like `corvid run`, it knows only built-in tools
  // and those of the config's tool modules, unless told that a program supplies the others.
  const allowUnknownTools = context.values['allow-unknown-tools'] === true;
  // Structure without secrets: an unset ${VAR} is a warning unless --strict asks for every variable.
  const missingEnv = context.values.strict === true ? 'error' : 'warning';
  const validation = await validateConfig({ path: file, cwd, env: context.env, allowUnknownTools, missingEnv });
  const name = validation.path ? displayPath(resolve(cwd), validation.path) : (file ?? 'config');
  const result = validation.ok && validation.config ? await withToolModules(validation, cwd, context.env) : validation;

  for (const w of result.warnings) stderr.write(`${err.yellow('warning:')} ${formatConfigIssue(w)}\n`);
  if (!result.ok || !result.config) {
    for (const issue of result.issues) stderr.write(`${formatConfigIssue(issue)}\n`);
    if (!allowUnknownTools && result.issues.some((i) => /^unknown tool "|is not known here/.test(i.message))) {
      stderr.write(
        `${err.dim('A tool defined in code is registered by your program (loadRuntime({ tools })); validate such a config with --allow-unknown-tools. For corvid run / chat / serve, put it in a tool module (tools: in the config).')}\n`,
      );
    }
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
