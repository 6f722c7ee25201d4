/**
 * Whether `value`'s own enumerable keys are exactly `keys`, in that order. Used to recognise the
 * common shapes of messages and tasks that can be held in a compact form and rebuilt exactly
 * (same fields, same order, so the same JSON). No array is allocated.
 */
export function hasExactKeys(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || key !== keys[i++]) return false;
  }
  return i === keys.length;
}
