import { ValidationError } from '../../errors/validation-error.js';

/** Variables a command gets from the parent process by default (plus every `LC_*`). */
export const DEFAULT_PASSED_ENV = [
  'PATH',
  'HOME',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  'COLORTERM',
  'NO_COLOR',
  'CI',
] as const;

/** Names that look like credentials; they are never passed from the parent, even when listed. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|DSN|DATABASE_URL)/i;

/** Throws when `passEnv` names a variable that looks like a credential. */
export function checkPassEnv(passEnv: readonly string[]): void {
  for (const name of passEnv) {
    if (!/^[A-Za-z_]\w*$/.test(name)) throw new ValidationError(`shell tool passEnv: "${name}" is not a variable name`);
    if (SECRET_NAME.test(name)) {
      throw new ValidationError(
        `shell tool passEnv: "${name}" looks like a secret and is never passed from the parent; set it under env explicitly if the command really needs it`,
      );
    }
  }
}

/**
 * The environment of a command: the allowed variables of `parent` (defaults, `LC_*` and
 * `passEnv`, never a name that looks like a credential), then `env` as configured.
 */
export function scrubEnv(options: {
  parent: NodeJS.ProcessEnv;
  passEnv?: readonly string[];
  env?: Record<string, string>;
}): Record<string, string> {
  const allowed = new Set<string>([...DEFAULT_PASSED_ENV, ...(options.passEnv ?? [])]);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.parent)) {
    if (value === undefined || SECRET_NAME.test(name)) continue;
    if (allowed.has(name) || name.startsWith('LC_')) out[name] = value;
  }
  out.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return { ...out, ...(options.env ?? {}) };
}
