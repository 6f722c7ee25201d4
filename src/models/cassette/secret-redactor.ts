/** Environment variables whose values are secrets: `*_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD` (and `*_API_KEY`). */
const SECRET_NAME = /(?:^|_)(?:KEY|TOKEN|SECRET|PASSWORD)$/i;

/** Shorter values are not masked: `DEBUG_TOKEN=1` would blank every "1" of a cassette. */
const MIN_SECRET_LENGTH = 8;

/** Secrets recognised by their shape, wherever they come from. */
const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]{8,}=*/g, '$1 <redacted>'],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, '<redacted:sk>'],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, '<redacted:google-key>'],
];

/**
 * Masks secrets in text before it is written to a cassette: the values of secret-named environment
 * variables (as `<redacted:NAME>`), explicitly given secrets, `Bearer …` tokens and API keys by
 * their shape. It runs over the serialised file, so a secret never reaches the disk in any field.
 */
export class SecretRedactor {
  private readonly secrets: Array<[string, string]>;

  constructor(options: { env?: Record<string, string | undefined>; secrets?: readonly string[] } = {}) {
    const found = new Map<string, string>();
    for (const [name, value] of Object.entries(options.env ?? process.env)) {
      if (value !== undefined && value.length >= MIN_SECRET_LENGTH && SECRET_NAME.test(name)) found.set(value, `<redacted:${name}>`);
    }
    for (const s of options.secrets ?? []) if (s.length >= MIN_SECRET_LENGTH && !found.has(s)) found.set(s, '<redacted>');
    // Longest first: a secret that contains another is masked whole.
    this.secrets = [...found.entries()].sort((a, b) => b[0].length - a[0].length);
  }

  /** Adds a secret known to the caller (a model config's `apiKey`). */
  add(secret: string | undefined): void {
    if (secret === undefined || secret.length < MIN_SECRET_LENGTH || this.secrets.some(([s]) => s === secret)) return;
    this.secrets.push([secret, '<redacted>']);
    this.secrets.sort((a, b) => b[0].length - a[0].length);
  }

  /** `text` with every secret masked (as written, and as escaped inside JSON strings). */
  text(text: string): string {
    let out = text;
    for (const [secret, mask] of this.secrets) {
      out = out.split(secret).join(mask);
      const escaped = JSON.stringify(secret).slice(1, -1);
      if (escaped !== secret) out = out.split(escaped).join(mask);
    }
    for (const [pattern, mask] of SECRET_PATTERNS) out = out.replace(pattern, mask);
    return out;
  }
}
