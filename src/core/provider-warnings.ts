import type { SharedV3Warning } from '@ai-sdk/provider';

/** Reports the provider warnings of a step not reported yet in this run; returns the set of those reported. */
export function emitWarnings(
  warnings: SharedV3Warning[],
  warned: Set<string> | undefined,
  emit: (w: { kind: SharedV3Warning['type']; feature?: string; message: string }) => void,
): Set<string> {
  const seen = warned ?? new Set<string>();
  for (const w of warnings) {
    const message = warningMessage(w);
    const feature = w.type === 'other' ? undefined : w.feature;
    const key = `${w.type}|${feature ?? ''}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    emit(feature === undefined ? { kind: w.type, message } : { kind: w.type, feature, message });
  }
  return seen;
}

/** A provider warning in words. */
function warningMessage(w: SharedV3Warning): string {
  if (w.type === 'other') return w.message;
  if (w.details) return w.details;
  return w.type === 'unsupported'
    ? `${w.feature} is not supported by this model and was left out`
    : `${w.feature} is used in a compatibility mode`;
}
