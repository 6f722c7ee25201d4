/**
 * The Studio's shell: checks whether the server wants a credential (sign-in screen), then the navigation, the
 * theme toggle and the page of the current route.
 */
import { useEffect, useState } from 'preact/hooks';

import { getToken, onAuthChange, setToken } from './api-client.js';
import type { WhoAmI } from './api-types.js';
import { AgentsPage } from './pages/agents-page.js';
import { ApprovalsPage } from './pages/approvals-page.js';
import { ChatPage } from './pages/chat-page.js';
import { EvalsPage } from './pages/evals-page.js';
import { KnowledgePage } from './pages/knowledge-page.js';
import { McpPage } from './pages/mcp-page.js';
import { MemoriesPage } from './pages/memories-page.js';
import { PlaygroundPage } from './pages/playground-page.js';
import { RunsPage } from './pages/runs-page.js';
import { SessionsPage } from './pages/sessions-page.js';
import { checkCredential, SignInPage } from './pages/sign-in-page.js';
import { applyTheme, currentTheme, type Theme } from './theme.js';
import { href, type Route, useRoute } from './use-route.js';

const NAV: ReadonlyArray<readonly [page: string, label: string]> = [
  ['agents', 'Agents'],
  ['chat', 'Chat'],
  ['playground', 'Playground'],
  ['sessions', 'Sessions'],
  ['runs', 'Runs'],
  ['approvals', 'Approvals'],
  ['evals', 'Evals'],
  ['memories', 'Memories'],
  ['knowledge', 'Knowledge'],
  ['mcp', 'MCP'],
];

type AuthState = { kind: 'checking' } | { kind: 'signed-in'; who: WhoAmI } | { kind: 'sign-in' } | { kind: 'error'; message: string };

export function App() {
  const route = useRoute();
  const [auth, setAuth] = useState<AuthState>({ kind: 'checking' });
  const [theme, setTheme] = useState<Theme>(currentTheme());
  const recheck = () =>
    void checkCredential(getToken()).then(
      (who) => setAuth({ kind: 'signed-in', who }),
      (err: Error & { status?: number }) =>
        err.status === 401 ? setAuth({ kind: 'sign-in' }) : setAuth({ kind: 'error', message: err.message }),
    );
  useEffect(() => {
    recheck();
    return onAuthChange(recheck);
  }, []);
  useEffect(() => {
    const label = NAV.find(([page]) => page === route.page)?.[1] ?? 'Studio';
    document.title = `${label} · Corvid Studio`;
  }, [route.page]);

  if (auth.kind === 'checking') return <p class="muted center">Connecting…</p>;
  if (auth.kind === 'sign-in') return <SignInPage onSignedIn={recheck} />;
  if (auth.kind === 'error')
    return (
      <main id="main" class="center">
        <h1>Corvid Studio</h1>
        <p class="error" role="alert">
          The server could not be reached: {auth.message}
        </p>
        <button type="button" onClick={recheck}>
          Try again
        </button>
      </main>
    );
  const toggleTheme = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    applyTheme(next, true);
    setTheme(next);
  };
  return (
    <>
      <a class="skip-link" href="#main" onClick={skipToMain}>
        Skip to content
      </a>
      <header class="top-bar">
        <a class="brand" href={href('agents')}>
          Corvid Studio
        </a>
        <nav aria-label="Studio">
          <ul>
            {NAV.map(([page, label]) => (
              <li key={page}>
                <a href={href(page)} aria-current={route.page === page ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="top-actions">
          {auth.who.subject ? <span class="muted">{auth.who.subject}</span> : null}
          <button type="button" onClick={toggleTheme} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
            {theme === 'dark' ? '☀' : '☾'}
          </button>
          {getToken() ? (
            <button type="button" onClick={() => setToken(undefined)}>
              Sign out
            </button>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} who={auth.who} />
      </main>
    </>
  );
}

/** Moves focus to the page (the hash router would otherwise read `#main` as a route). */
function skipToMain(event: Event): void {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

function Page({ route, who }: { route: Route; who: WhoAmI }) {
  switch (route.page) {
    case 'agents':
      return <AgentsPage name={route.parts[0]} />;
    case 'chat':
      return (
        <ChatPage
          key={`${route.parts[0]}|${route.params.get('session')}|${route.params.get('new')}`}
          agentName={route.parts[0]}
          sessionId={route.params.get('session') ?? undefined}
        />
      );
    case 'sessions':
      return <SessionsPage id={route.parts[0]} />;
    case 'runs':
      return <RunsPage id={route.parts[0]} status={route.params.get('status') ?? undefined} view={route.params.get('view') ?? undefined} />;
    case 'playground':
      return <PlaygroundPage agentName={route.parts[0]} />;
    case 'approvals':
      return <ApprovalsPage />;
    case 'evals':
      return <EvalsPage id={route.parts[0]} />;
    case 'memories':
      return <MemoriesPage ownOnly={who.authRequired} />;
    case 'knowledge':
      return <KnowledgePage />;
    case 'mcp':
      return <McpPage />;
    default:
      return (
        <p>
          No such page. <a href={href('agents')}>Agents</a>
        </p>
      );
  }
}
