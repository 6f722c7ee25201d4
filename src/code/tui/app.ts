/**
 * The full-screen UI of `corvid code`: the transcript printed once per item (Ink `<Static>`), the live area, the
 * input box (or an approval prompt) and the status line. Key handling is in `use-keys.ts`.
 */
import { Box, Static, Text, useApp, useStdout } from 'ink';
import { createElement as h, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';

import { reportRejection } from '../../core/report-rejection.js';
import type { CodeSession } from '../code-session-types.js';
import { style } from './ansi.js';
import { ApprovalBox } from './approval-box.js';
import { slashHelp, slashHints, UNDO_HINT } from './completion.js';
import { renderItem, spacedBefore } from './item-view.js';
import { InputBox, LiveArea } from './live-view.js';
import { loadRenderers, renderMarkdown } from './renderers.js';
import { formatStatus } from './status-line.js';
import { TodoPanel, todoPanelRows } from './todo-panel.js';
import { type TranscriptItem, TranscriptModel } from './transcript-model.js';
import { useKeys } from './use-keys.js';

/** Props of `App`. */
export interface AppProps {
  session: CodeSession;
  /** Called once the app has exited (after `/exit`, Ctrl-C twice, …). */
  onExit?: () => void;
  /** Delay that coalesces bursts of events into one render, in ms. Default 16. */
  frameMs?: number;
}

const CLEAR_SCREEN = '\u001b[2J\u001b[3J\u001b[H';

/** The UI's root component. */
export function App(props: AppProps): ReactNode {
  const { session } = props;
  const { exit } = useApp();
  const { stdout } = useStdout();
  const model = useMemo(() => initialModel(session), [session]);
  const [, setTick] = useState(0);
  const [ready, setReady] = useState(false);
  const [frame, setFrame] = useState(0);
  const [showReasoning, setShowReasoning] = useState(false);
  // The session could not open: the UI erases itself and exits (the command prints why).
  const [failed, setFailed] = useState(false);
  const shownEpoch = useRef(model.epoch);
  const width = Math.max(30, stdout.columns || 80);
  const rows = Math.max(10, stdout.rows || 24);

  const rerender = useScheduledRender(setTick, props.frameMs ?? 16);
  useEffect(() => {
    void loadRenderers()
      .then(() => setReady(true))
      .catch(reportRejection('loading the renderers'));
    return session.subscribe((event) => {
      model.apply(event);
      if (model.exited && model.status?.starting) setFailed(true);
      else if (model.exited) exit();
      else rerender();
    });
  }, [session, model, exit, rerender]);
  useEffect(() => {
    if (failed) exit();
  }, [failed, exit]);
  // A spinner while a turn runs.
  useEffect(() => {
    if (!model.busy) return;
    const timer = setInterval(() => setFrame((f) => f + 1), 120);
    return () => clearInterval(timer);
  }, [model.busy]);
  // The transcript was replaced (clear, resume, reasoning toggle): redraw from a clean screen.
  if (shownEpoch.current !== model.epoch) {
    shownEpoch.current = model.epoch;
    stdout.write(CLEAR_SCREEN);
  }
  const keys = useKeys({
    session,
    model,
    rerender,
    exit,
    onToggleReasoning: () => (setShowReasoning((v) => !v), model.redraw()),
    onViewPreview: (preview) => (model.apply({ type: 'notice', level: 'info', text: preview }), rerender()),
  });
  if (failed) return null;
  const itemOptions = { width, showReasoning, markdown: renderMarkdown };
  const approval = model.approvals[0];
  const hints = !approval ? hintLine(keys, session) : undefined;
  const todoRows = todoPanelRows(model.todos, model.busy);
  const reserved = 6 + keys.input.value.split('\n').length + todoRows;
  return h(
    Box,
    { flexDirection: 'column' },
    h(Static, {
      key: `static-${model.epoch}`,
      // A new array each time items were added: <Static> slices by identity and length.
      items: ready ? model.items.slice() : [],
      children: (it: unknown) => {
        const item = it as TranscriptItem;
        const text = renderItem(item, itemOptions);
        if (text === undefined) return h(Box, { key: item.id });
        const depth = 'depth' in item ? item.depth : 0;
        return h(Box, { key: item.id, marginTop: spacedBefore(item) ? 1 : 0, paddingLeft: depth * 2 }, h(Text, null, text));
      },
    }),
    h(LiveArea, { model, width, maxRows: Math.max(3, rows - reserved - (approval ? 8 : 0)), showReasoning, frame }),
    todoRows > 0 ? h(TodoPanel, { todos: model.todos, width }) : null,
    approval
      ? h(ApprovalBox, { approval, width, maxRows: Math.max(3, rows - 10), reason: keys.reason, queued: model.approvals.length - 1 })
      : h(InputBox, { input: keys.input, width, placeholder: placeholder(model.busy), focused: true }),
    hints ? h(Text, null, hints) : null,
    model.status ? h(Text, null, formatStatus(model.status, width)) : null,
  );
}

function initialModel(session: CodeSession): TranscriptModel {
  const model = new TranscriptModel();
  const messages = session.messages();
  if (messages.length) model.replace(messages);
  model.epoch = 0;
  model.status = session.status();
  model.todos = session.todos();
  model.welcome();
  return model;
}

const placeholder = (busy: boolean): string =>
  busy ? 'Working… type to queue a message, Esc to interrupt' : 'Ask, /command, !shell, @file — Alt+Enter or \\ for a new line';

function hintLine(keys: ReturnType<typeof useKeys>, session: CodeSession): string | undefined {
  if (keys.notice) return style('yellow', keys.notice);
  if (keys.candidates.length) return style('gray', keys.candidates.slice(0, 12).join('  '));
  if (/^\/undo\s+\S*$/i.test(keys.input.value)) return style('gray', UNDO_HINT);
  const custom = keys.input.value.startsWith('/') ? session.customCommands() : [];
  const slash = slashHints(keys.input.value, custom);
  if (slash.length) {
    return slash
      .slice(0, 6)
      .map((c) => `${style('cyan', c)} ${style('gray', slashHelp(c, custom))}`)
      .join('\n');
  }
  if (keys.queued.length) return style('gray', `${keys.queued.length} message${keys.queued.length > 1 ? 's' : ''} queued`);
  return undefined;
}

/** A render function that coalesces calls made within `ms` into one re-render. */
function useScheduledRender(setTick: (f: (n: number) => number) => void, ms: number): () => void {
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  return useMemo(
    () => () => {
      if (pending.current !== undefined) return;
      pending.current = setTimeout(() => {
        pending.current = undefined;
        setTick((n) => n + 1);
      }, ms);
    },
    [setTick, ms],
  );
}
