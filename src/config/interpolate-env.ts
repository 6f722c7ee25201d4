/** Result of interpolating one string. */
export interface InterpolationResult {
  value: string;
  /** Variables referenced without a default that are not set. */
  missing: string[];
  /** Malformed expressions (`${}`, `${1X}`, an unclosed `${`). */
  errors: string[];
}

const EXPRESSION = /\$\$\{|\$\{([^}]*)\}|\$\{/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when the string contains something `interpolateEnv` would replace. */
export function hasInterpolation(text: string): boolean {
  return text.includes('${');
}

/**
 * Replaces `${VAR}` and `${VAR:-default}` in one string. `${VAR:-default}` uses the default
 * when VAR is unset or empty; `$${` is a literal `${`. No nesting, no recursion: values are
 * inserted as-is and never interpolated again.
 * @example
 * interpolateEnv('Bearer ${TOKEN:-none}', { TOKEN: 'abc' }).value // 'Bearer abc'
 */
export function interpolateEnv(text: string, env: Record<string, string | undefined>): InterpolationResult {
  const missing: string[] = [];
  const errors: string[] = [];
  const value = text.replace(EXPRESSION, (match: string, body: string | undefined) => {
    if (match === '$${') return '${';
    if (body === undefined) {
      errors.push('unclosed "${": write ${NAME} or ${NAME:-default} (use "$${" for a literal "${")');
      return match;
    }
    const sep = body.indexOf(':-');
    const name = (sep === -1 ? body : body.slice(0, sep)).trim();
    if (!NAME.test(name)) {
      errors.push(`invalid variable reference "\${${body}}": write \${NAME} or \${NAME:-default}`);
      return match;
    }
    const current = env[name];
    if (sep !== -1) return current === undefined || current === '' ? body.slice(sep + 2) : current;
    if (current === undefined) {
      missing.push(name);
      return '';
    }
    return current;
  });
  return { value, missing, errors };
}
