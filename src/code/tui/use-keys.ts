/**
 * Keyboard handling of the UI: editing, history, completion, submit (prompt, `/command`, `!command`), Shift+Tab
 * mode cycling, Ctrl-C / Esc cancelling, Ctrl-O reasoning, and the approval prompt's y / n / a / p.
 */
import { type Key, useInput } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';

import { CODE_MODES, type CodeApproval, type CodeMode, type CodeSession } from '../code-session-types.js';
import { complete } from './completion.js';
import { initialInput, type InputAction, inputReducer, type InputState } from './input-state.js';
import type { TranscriptModel } from './transcript-model.js';

/** A second Ctrl-C within this many ms exits. */
export const EXIT_WINDOW_MS = 2000;

/** What `useKeys` needs. */
export interface KeysOptions {
  session: CodeSession;
  model: TranscriptModel;
  rerender: () => void;
  exit: () => void;
  onToggleReasoning: () => void;
  /** `v` on an approval: print its whole preview above the prompt. */
  onViewPreview: (preview: string) => void;
}

/** What the UI shows from the key state. */
export interface KeysState {
  input: InputState;
  /** The denial reason being typed, after `n` on an approval. */
  reason: string | undefined;
  /** Completion candidates listed after Tab. */
  candidates: string[];
  /** A transient hint (e.g. "Press Ctrl-C again to exit"). */
  notice: string | undefined;
  /** Messages typed while a turn ran (or the session opened), sent when it ends. */
  queued: string[];
}

/** Installs the key handler; returns the state the UI renders. */
export function useKeys(o: KeysOptions): KeysState {
  const { session, model } = o;
  // The editor's state lives in refs (read by the key handler synchronously: keys arriving between two renders
  // see each other's effect); a counter re-renders.
  const [, force] = useState(0);
  const inputRef = useRef<InputState | undefined>(undefined);
  inputRef.current ??= initialInput(userHistory(session));
  useOpenedHistory(session, model, inputRef as { current: InputState });
  const reasonRef = useRef<string | undefined>(undefined);
  const dispatch = (action: InputAction): void => {
    inputRef.current = inputReducer(inputRef.current as InputState, action);
    force((n) => n + 1);
  };
  const setReason = (r: string | undefined): void => {
    reasonRef.current = r;
    force((n) => n + 1);
  };
  const [candidates, setCandidates] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [queued, setQueued] = useState<string[]>([]);
  const lastCtrlC = useRef(0);
  const running = useRef(false);

  const submit = useSubmit(o, running, setQueued);
  // Send the next queued message once the turn is over.
  useEffect(() => {
    if (model.busy || running.current || queued.length === 0 || model.status?.starting) return;
    const [next, ...rest] = queued;
    setQueued(rest);
    submit(next);
  });

  const onCtrlC = (): void => {
    const now = Date.now();
    const again = now - lastCtrlC.current < EXIT_WINDOW_MS;
    lastCtrlC.current = now;
    if (again || (!model.busy && inputRef.current?.value === '')) return (session.cancel(), o.exit());
    if (model.busy) session.cancel();
    else dispatch({ type: 'clear' });
    setQueued([]);
    setNotice('Press Ctrl-C again to exit');
    setTimeout(() => setNotice(undefined), EXIT_WINDOW_MS);
  };

  // Tab: completes the `/command` or `@path` at the cursor (listing the candidates when several remain).
  const completeInput = (): void => {
    const input = inputRef.current as InputState;
    void complete(input.value, input.cursor, (p) => session.completePath(p), session.customCommands()).then(
      (c) => {
        if (!c) return;
        dispatch({ type: 'set', value: c.value, cursor: c.cursor });
        setCandidates(c.candidates);
      },
      (err: unknown) => setNotice(`Completion failed: ${(err as Error)?.message ?? String(err)}`),
    );
  };

  const handler = (text: string, key: Key): void => {
    const input = inputRef.current as InputState;
    if (key.ctrl && text === 'c') return onCtrlC();
    if (key.ctrl && text === 'o') return o.onToggleReasoning();
    if (key.ctrl && text === 'd' && input.value === '' && !model.busy) return o.exit();
    const approval = model.approvals[0];
    if (approval) return onApprovalKey({ session, approval, text, key, reason: reasonRef.current, setReason, view: o.onViewPreview });
    if (key.escape) {
      if (candidates.length) setCandidates([]);
      else if (model.busy) session.cancel();
      return;
    }
    if (key.tab && key.shift) return session.setMode(nextMode(model.status?.mode ?? 'default', model.status?.sandbox ?? false));
    if (key.tab) return completeInput();
    setCandidates([]);
    if (key.return) return onReturn(input, key, dispatch, submit);
    // Text and Enter or Tab in one chunk (fast typing, `tmux send-keys text Enter`): the text, then the key. A
    // chunk with several line breaks is a paste and is inserted as it is.
    // eslint-disable-next-line no-control-regex
    if (text.length > 1 && /^[^\u0000-\u001f]+[\r\t]$/.test(text)) {
      dispatch({ type: 'insert', text: text.slice(0, -1) });
      return text.endsWith('\t') ? completeInput() : onReturn(inputRef.current as InputState, key, dispatch, submit);
    }
    const action = editAction(text, key);
    if (action) dispatch(action);
  };
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useInput(useCallback((text: string, key: Key) => handlerRef.current(text, key), []));
  return { input: inputRef.current, reason: reasonRef.current, candidates, notice, queued };
}

/** The mode Shift+Tab switches to: the next in `CODE_MODES`, skipping `yolo` when the sandbox is off (it would be refused). */
export function nextMode(current: CodeMode, sandbox: boolean): CodeMode {
  const modes = sandbox ? CODE_MODES : CODE_MODES.filter((m) => m !== 'yolo');
  return modes[(modes.indexOf(current) + 1) % modes.length];
}

/** A session that opens after the UI is drawn brings its earlier messages (`--resume`) into the history then. */
function useOpenedHistory(session: CodeSession, model: TranscriptModel, inputRef: { current: InputState }): void {
  const loaded = useRef(!model.status?.starting);
  if (loaded.current || model.status?.starting) return;
  loaded.current = true;
  const current = inputRef.current;
  const earlier = userHistory(session);
  inputRef.current = { ...current, history: [...earlier, ...current.history], historyIndex: current.historyIndex + earlier.length };
}

function useSubmit(
  o: KeysOptions,
  running: { current: boolean },
  setQueued: (f: (q: string[]) => string[]) => void,
): (text: string) => void {
  const { session, model } = o;
  return (text: string) => {
    const line = text.trim();
    if (!line) return;
    const report = (err: unknown) => {
      model.apply({ type: 'notice', level: 'error', text: err instanceof Error ? err.message : String(err) });
      o.rerender();
    };
    if (line.startsWith('/')) return void session.command(line).catch(report);
    if (line.startsWith('!')) return void session.runShell(line.slice(1).trim()).catch(report);
    // Messages typed while a turn runs, or before the session has opened, wait for their turn.
    if (model.busy || running.current || model.status?.starting) return setQueued((q) => [...q, line]);
    running.current = true;
    void session
      .send(line)
      .catch(report)
      .finally(() => {
        running.current = false;
        o.rerender();
      });
  };
}

function onReturn(input: InputState, key: Key, dispatch: (a: InputAction) => void, submit: (text: string) => void): void {
  // Alt+Enter, Shift+Enter (terminals that report it) and a trailing backslash insert a new line.
  if (key.meta || key.shift) return dispatch({ type: 'insert', text: '\n' });
  if (input.cursor > 0 && input.value[input.cursor - 1] === '\\') {
    dispatch({ type: 'backspace' });
    return dispatch({ type: 'insert', text: '\n' });
  }
  submit(input.value);
  dispatch({ type: 'submit' });
}

/** The editing action of a key, or `undefined`. */
export function editAction(text: string, key: Key): InputAction | undefined {
  if (key.backspace || key.delete) return { type: 'backspace' };
  if (key.leftArrow) return { type: 'left' };
  if (key.rightArrow) return { type: 'right' };
  if (key.upArrow) return { type: 'up' };
  if (key.downArrow) return { type: 'down' };
  if (key.home || (key.ctrl && text === 'a')) return { type: 'home' };
  if (key.end || (key.ctrl && text === 'e')) return { type: 'end' };
  if (key.ctrl && text === 'w') return { type: 'deleteWord' };
  if (key.ctrl && text === 'u') return { type: 'deleteToStart' };
  if (key.ctrl && text === 'd') return { type: 'delete' };
  if (key.ctrl || key.escape || text === '') return undefined;
  return { type: 'insert', text };
}

interface ApprovalKey {
  session: CodeSession;
  approval: CodeApproval;
  text: string;
  key: Key;
  reason: string | undefined;
  setReason: (r: string | undefined) => void;
  view: (preview: string) => void;
}

function onApprovalKey(a: ApprovalKey): void {
  const answer = (approved: boolean, extra: { reason?: string; always?: 'tool' | 'prefix' } = {}) => {
    a.setReason(undefined);
    a.session.answerApproval(a.approval.id, { approved, ...extra });
  };
  if (a.reason !== undefined) {
    const typed = a.text.endsWith('\r') ? a.reason + a.text.slice(0, -1) : undefined;
    if (a.key.return || typed !== undefined) {
      const reason = (typed ?? a.reason).trim();
      return answer(false, reason ? { reason } : {});
    }
    if (a.key.escape) return a.setReason(undefined);
    if (a.key.backspace || a.key.delete) return a.setReason(a.reason.slice(0, -1));
    if (!a.key.ctrl && a.text) a.setReason(a.reason + a.text);
    return;
  }
  const k = a.text.toLowerCase();
  if (k === 'y' || a.key.return) answer(true);
  else if (k === 'n') a.setReason('');
  else if (a.key.escape) answer(false);
  else if (k === 'a') answer(true, { always: 'tool' });
  else if (k === 'p' && a.approval.prefix) answer(true, { always: 'prefix' });
  else if (k === 'v') a.view(a.approval.preview);
}

function userHistory(session: CodeSession): string[] {
  const out: string[] = [];
  for (const m of session.messages()) {
    if (m.role !== 'user') continue;
    const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    if (text.trim()) out.push(text.trim());
  }
  return out;
}
