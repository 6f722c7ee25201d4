/**
 * Whether `value`'s enumerable keys are exactly `keys`, in that order. Used to recognise the
 * common shapes of messages and tasks that can be held in a compact form and rebuilt exactly
 * (same fields, same order, so the same JSON). No array is allocated. An inherited enumerable key
 * (a polluted prototype) comes after the own ones and makes the answer false.
 */
export function hasExactKeys(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) {
    if (key !== keys[i++]) return false;
  }
  return i === keys.length;
}
