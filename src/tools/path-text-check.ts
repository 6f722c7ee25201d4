/**
 * Checks on the text of a requested path, before it touches the file system: NUL bytes,
 * control and invisible characters, Unicode look-alikes of `/`, `\` and `.`, and the shapes a
 * model may think mean something they do not (`~`, Windows separators on POSIX).
 */

/** Separator and dot look-alikes that Unicode normalisation (NFKC) does not map to ASCII. */
const LOOKALIKES = new Map<number, string>([
  [0x2215, 'DIVISION SLASH'],
  [0x2044, 'FRACTION SLASH'],
  [0x29f8, 'BIG SOLIDUS'],
  [0x29f9, 'BIG REVERSE SOLIDUS'],
  [0x2571, 'BOX DRAWINGS LIGHT DIAGONAL'],
  [0x29c4, 'SQUARED RISING DIAGONAL SLASH'],
  [0x1735, 'PHILIPPINE SINGLE PUNCTUATION'],
  [0x2e4a, 'DOTTED SOLIDUS'],
  [0x3033, 'VERTICAL KANA REPEAT MARK UPPER HALF'],
  [0x0338, 'COMBINING LONG SOLIDUS OVERLAY'],
  [0x0337, 'COMBINING SHORT SOLIDUS OVERLAY'],
  [0x2024, 'ONE DOT LEADER'],
  [0x0701, 'SYRIAC SUPRALINEAR FULL STOP'],
  [0x0702, 'SYRIAC SUBLINEAR FULL STOP'],
  [0xa4f8, 'LISU LETTER TONE MYA TI'],
  [0xa60e, 'VAI FULL STOP'],
  [0x10a50, 'KHAROSHTHI PUNCTUATION DOT'],
  [0x3002, 'IDEOGRAPHIC FULL STOP'],
  [0xff61, 'HALFWIDTH IDEOGRAPHIC FULL STOP'],
]);

/** Bidirectional controls, zero-width characters and the BOM: they hide what a name really is. */
function isInvisible(cp: number): boolean {
  return (
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x2069) ||
    cp === 0xfeff ||
    cp === 0x00ad ||
    cp === 0x061c ||
    cp === 0x180e
  );
}

function hex(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Why the text of `path` is refused, or `undefined` when it is acceptable.
 * `kind` tells an invalid path from a look-alike trick.
 */
export function checkPathText(path: unknown): { kind: 'invalid' | 'lookalike'; message: string } | undefined {
  if (typeof path !== 'string') return { kind: 'invalid', message: 'the path must be a string' };
  if (path.length === 0) return { kind: 'invalid', message: 'the path is empty (use "." for the root folder)' };
  if (path.length > 4096) return { kind: 'invalid', message: 'the path is longer than 4096 characters' };
  if (path.includes('\0')) return { kind: 'invalid', message: 'the path contains a NUL byte' };
  if (path.startsWith('~')) {
    return { kind: 'invalid', message: '"~" is not expanded: give a path relative to the root folder, or an absolute path inside it' };
  }
  if (process.platform !== 'win32' && path.includes('\\')) {
    return { kind: 'invalid', message: 'the path contains "\\": use "/" to separate folders' };
  }
  for (const ch of path) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0)) {
      return { kind: 'invalid', message: `the path contains the control character ${hex(cp)}` };
    }
    if (cp < 0x80) continue;
    if (isInvisible(cp)) return { kind: 'lookalike', message: `the path contains the invisible character ${hex(cp)}` };
    const named = LOOKALIKES.get(cp);
    if (named) return { kind: 'lookalike', message: `the path contains ${hex(cp)} ${named}, a look-alike of "/" or "."` };
    const folded = ch.normalize('NFKC');
    if (/[./\\]/.test(folded)) {
      return { kind: 'lookalike', message: `the path contains ${hex(cp)}, which normalises to ${JSON.stringify(folded)}` };
    }
  }
  return undefined;
}
