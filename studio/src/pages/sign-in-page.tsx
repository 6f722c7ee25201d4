/** Sign-in: an API key or a JWT, checked against the server before it is kept (in sessionStorage). */
import { useState } from 'preact/hooks';

import { ApiError, setToken } from '../api-client.js';
import type { WhoAmI } from '../api-types.js';
import { reportRejection } from '../report-rejection.js';

/** Checks a credential: `GET /whoami`, or `GET /agents` on servers without it. */
export async function checkCredential(token: string | undefined): Promise<WhoAmI> {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  for (const path of ['/api/v1/whoami', '/api/v1/agents']) {
    const res = await fetch(path, { headers });
    if (res.status === 404 && path.endsWith('whoami')) continue;
    if (res.status === 401) {
      const body = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
      throw new ApiError({
        status: 401,
        code: body.error?.code ?? 'unauthorized',
        message: body.error?.message ?? 'The credential was refused.',
      });
    }
    if (!res.ok) throw new ApiError({ status: res.status, code: `http_${res.status}`, message: `The server answered ${res.status}.` });
    if (path.endsWith('whoami')) return (await res.json()) as WhoAmI;
    return { authenticated: Boolean(token), authRequired: Boolean(token) };
  }
  throw new Error('unreachable');
}

export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setTokenText] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    const value = token.trim();
    if (!value) return setError('Paste an API key or a JWT.');
    setBusy(true);
    setError(undefined);
    try {
      await checkCredential(value);
      setToken(value);
      onSignedIn();
    } catch (err) {
      const message = err instanceof ApiError && err.status === 401 ? `This key was refused: ${err.message}` : (err as Error).message;
      setError(message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to Corvid Studio</h1>
      <p>This server needs a credential. It is kept in this tab only (sessionStorage) and sent as a bearer token.</p>
      <form onSubmit={(e) => void submit(e).catch(reportRejection('signing in'))}>
        <label for="token">API key or JWT</label>
        <textarea
          id="token"
          rows={3}
          value={token}
          autoComplete="off"
          spellcheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'sign-in-error' : undefined}
          onInput={(e) => setTokenText(e.currentTarget.value)}
        />
        {error ? (
          <p id="sign-in-error" class="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
