/** Light / dark theme: the system's (prefers-color-scheme) unless the user picked one (kept in localStorage). */
export type Theme = 'light' | 'dark';

const KEY = 'corvid.studio.theme';

/** The theme in force. */
export function currentTheme(): Theme {
  const stored = safeGet();
  if (stored === 'light' || stored === 'dark') return stored;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Applies a theme to the document (and remembers it when `remember`). */
export function applyTheme(theme: Theme, remember = false): void {
  document.documentElement.dataset.theme = theme;
  if (remember)
    try {
      localStorage.setItem(KEY, theme);
    } catch {}
}

function safeGet(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}
