import type { CommandSpec } from './command-specs.js';

/** The spec of `corvid code`; `globalHelp` is the global options' help text. */
export function codeCommandSpec(globalHelp: string): CommandSpec {
  return {
    name: 'code',
    summary: 'A coding agent for the project in this folder (terminal UI, plain or headless)',
    options: {
      print: { type: 'string', short: 'p' },
      mode: { type: 'string' },
      json: { type: 'boolean' },
      plain: { type: 'boolean' },
      resume: { type: 'boolean', short: 'r' },
      agent: { type: 'string', short: 'a' },
      model: { type: 'string', short: 'm' },
      'no-sandbox': { type: 'boolean' },
      allow: { type: 'string', multiple: true },
      'dangerously-run-unsandboxed': { type: 'boolean' },
      web: { type: 'boolean' },
      verbose: { type: 'boolean' },
    },
    maxPositionals: 1,
    help: `Usage: corvid code [options]
       corvid code -p <task> [--mode auto-edit] [--json]
       corvid code --resume [session-id]

A coding agent working in the current folder: it reads, searches and edits files (confined to the
folder) and runs shell commands (in a bubblewrap sandbox when available), asking before it
changes anything unless the mode allows it. On a terminal it opens the full-screen UI (bundled with
the package); with pipes, or --plain, it reads one line per input and prints plain lines. Sessions are stored in ~/.corvid/code.db ($CORVID_HOME/code.db).

Modes (--mode, /mode, Shift+Tab in the UI):
  ask        read-only: no edits, no shell
  default    reads are free; edits and shell commands ask
  auto-edit  edits are free; shell commands ask
  plan       read-only; the model writes a plan and you approve it before it changes anything
             (with -p: prints the plan and exits)
  yolo       nothing asks (only with the sandbox on)

Commands inside: /help /model [id] /mode [m] /plan [task] /clear /compact /undo [files|conversation] /diff
/sessions /resume [id] /cost /init /mcp /exit, and your own: Markdown files in .corvid/commands/ and
~/.corvid/commands/ (also with -p "/name args"); !<command> runs a shell command; approvals: y / n <reason> /
a (always this tool) / p (always this command prefix). Hooks: code.hooks in corvid.yaml.

Options:
  -p, --print <task>     Headless: run one task to its end and print the answer ("-": read it from
                         stdin). Calls the mode would ask about are denied, with the reason sent
                         to the model. Exit code 0 answered, 1 failed, 130 cancelled
      --json             With -p: print every event as one JSON line (NDJSON) instead
      --verbose          With -p: print the steps on stderr
      --mode <mode>      default (default), auto-edit, plan, yolo or ask
  -r, --resume [id]      Continue a session of this folder (default: the latest one)
  -a, --agent <name>     Start from a corvid.yaml agent (its instructions, tools, MCP servers)
  -m, --model <id>       provider:model or a corvid.yaml model name (default: defaults.model,
                         CORVID_MODEL, or the provider whose API key is set)
      --allow <prefix>   Run shell commands starting with this prefix without asking (repeatable;
                         also code.allow in corvid.yaml), e.g. --allow "npm test" --allow "node --test".
                         Never a bare interpreter or shell (node, python, bash, npx), never inline code
                         (-e, -c), never a line with &&, ;, | or $(
      --no-sandbox       Run shell commands unconfined (yolo mode is then refused)
      --dangerously-run-unsandboxed
                         Allow yolo mode without the sandbox: every command the model writes runs
                         unconfined, with your permissions. Only in a throwaway container
      --web              Add the web tools (web_fetch, http_request)
      --plain            Plain line output even on a terminal

${globalHelp}

Exit codes: 0 success, 1 failure, 2 bad usage, 130 interrupted.

Examples:
  corvid code
  corvid code -p "fix the failing test" --mode auto-edit
  corvid code -p "fix the failing test" --mode auto-edit --allow "npm test"
  git diff | corvid code -p - --mode ask --json
  corvid code --resume`,
  };
}
