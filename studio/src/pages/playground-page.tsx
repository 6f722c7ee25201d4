/**
 * Playground: try an agent with another model, other settings or an edited system prompt. The changes travel with
 * each request (`overrides`) and are never saved; each answer links to its run's trace.
 */
import { useEffect, useState } from 'preact/hooks';

import { api, seg } from '../api-client.js';
import type { AgentDetail, AgentInfo, ChatAnswer } from '../api-types.js';
import { type ModelChoice, ModelSwitcher, NO_CHOICE, overridesOf, type TurnOverrides } from '../model-switcher.js';
import { reportRejection } from '../report-rejection.js';
import { Badge, ErrorBox, LoadView, Markdown, PageHeader, UsageText, useLoad } from '../ui.js';
import { href, navigate } from '../use-route.js';

interface Exchange {
  message: string;
  overrides: TurnOverrides;
  answer?: ChatAnswer & { pendingApprovals?: unknown[] };
  error?: Error;
}

export function PlaygroundPage({ agentName }: { agentName?: string }) {
  const agents = useLoad(() => api<{ agents: AgentInfo[] }>('/agents'), []);
  const llm = agents.data?.agents.filter((a) => a.kind === 'llm') ?? [];
  const name = agentName ?? llm.find((a) => a.default)?.name ?? llm[0]?.name;
  return (
    <section>
      <PageHeader title="Playground">
        <label for="playground-agent">Agent</label>
        <select id="playground-agent" value={name ?? ''} onChange={(e) => navigate(href('playground', [e.currentTarget.value]))}>
          {llm.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name}
            </option>
          ))}
        </select>
      </PageHeader>
      <p class="notice" role="note">
        <strong>Not saved.</strong> The model, settings and system prompt set here go with the messages sent from this page only; the
        agent’s configuration does not change.
      </p>
      <LoadView loaded={agents} what="Agents">
        {() => (name ? <Playground key={name} name={name} /> : <p class="muted">No LLM agent is visible to you on this server.</p>)}
      </LoadView>
    </section>
  );
}

function Playground({ name }: { name: string }) {
  const detail = useLoad(() => api<AgentDetail>(`/agents/${seg(name)}`), [name]);
  const [choice, setChoice] = useState<ModelChoice>(NO_CHOICE);
  const [prompt, setPrompt] = useState<string>();
  const [message, setMessage] = useState('');
  const [sessionId, setSessionId] = useState<string>();
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (detail.data && prompt === undefined) setPrompt(detail.data.instructions ?? '');
  }, [detail.data]);
  const original = detail.data?.instructions ?? '';
  const edited = prompt !== undefined && prompt !== original;
  const send = async (event: Event) => {
    event.preventDefault();
    const text = message.trim();
    if (!text || busy) return;
    const overrides: TurnOverrides = { ...overridesOf(choice), ...(edited ? { instructions: prompt } : {}) };
    const exchange: Exchange = { message: text, overrides };
    setExchanges((list) => [...list, exchange]);
    setMessage('');
    setBusy(true);
    try {
      const answer = await api<ChatAnswer>(`/agents/${seg(name)}/chat`, {
        body: { message: text, ...(sessionId && { sessionId }), ...(Object.keys(overrides).length > 0 && { overrides }) },
      });
      setSessionId(answer.sessionId);
      exchange.answer = answer;
    } catch (err) {
      exchange.error = err as Error;
    } finally {
      setExchanges((list) => [...list]);
      setBusy(false);
    }
  };
  return (
    <div class="playground">
      <form class="playground-settings" onSubmit={(e) => void send(e).catch(reportRejection('sending the message'))}>
        <ModelSwitcher value={choice} onChange={setChoice} agentModel={detail.data?.model} idPrefix="playground" />
        <div class="field">
          <label for="playground-prompt">System prompt {edited ? <Badge text="edited, not saved" tone="paused" /> : null}</label>
          <textarea
            id="playground-prompt"
            rows={6}
            value={prompt ?? ''}
            placeholder={
              detail.data && detail.data.instructions === undefined
                ? 'The server does not show this agent’s prompt; text here replaces it'
                : ''
            }
            onInput={(e) => setPrompt(e.currentTarget.value)}
          />
          {edited ? (
            <button type="button" onClick={() => setPrompt(original)}>
              Reset to the agent’s prompt
            </button>
          ) : null}
        </div>
        <div class="field">
          <label for="playground-message">Message</label>
          <textarea id="playground-message" rows={3} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || message.trim() === ''}>
            {busy ? 'Sending…' : 'Send'}
          </button>
          {sessionId ? (
            <button type="button" onClick={() => (setSessionId(undefined), setExchanges([]))}>
              New conversation
            </button>
          ) : null}
        </div>
      </form>
      <PlaygroundLog exchanges={exchanges} />
    </div>
  );
}

function PlaygroundLog({ exchanges }: { exchanges: Exchange[] }) {
  return (
    <ol class="playground-log" aria-label="Playground conversation" aria-live="polite">
      {exchanges.map((x, i) => (
        <li key={i} class="card">
          <p>
            <strong>You:</strong> {x.message}
          </p>
          <p class="muted small">{describe(x.overrides)}</p>
          {x.error ? <ErrorBox error={x.error} /> : null}
          {x.answer ? (
            <div class="playground-answer">
              {x.answer.status === 'paused' ? (
                <p>
                  The run waits for an approval: <a href={href('approvals')}>answer it in the inbox</a>.
                </p>
              ) : (
                <Markdown text={x.answer.answer ?? ''} />
              )}
              <p class="muted small">
                <UsageText usage={x.answer.usage} />
                {x.answer.runId ? (
                  <>
                    {' '}
                    · <a href={href('runs', [x.answer.runId], { view: 'trace' })}>trace of this run</a>
                  </>
                ) : null}
              </p>
            </div>
          ) : x.error ? null : (
            <p class="muted" aria-busy="true">
              Waiting for the answer…
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

function describe(o: TurnOverrides): string {
  const parts = [
    o.model ? `model ${o.model}` : '',
    o.temperature !== undefined ? `temperature ${o.temperature}` : '',
    o.maxTokens !== undefined ? `max ${o.maxTokens} tokens` : '',
    o.instructions !== undefined ? 'edited system prompt' : '',
  ].filter(Boolean);
  return parts.length > 0 ? `Sent with ${parts.join(', ')} (not saved)` : 'Sent with the agent’s own settings';
}
