import type { ParseArgsConfig } from 'node:util';

import { codeCommandSpec } from './code-command-spec.js';
import { evalCommandSpec } from './eval-command-spec.js';
import { knowledgeCommandSpecs } from './knowledge-command-specs.js';
import { storeCommandSpecs } from './store-command-specs.js';

/** Option definitions in `node:util` parseArgs form. */
export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** A subcommand: its options, help text, and the module that implements it (imported lazily). */
export interface CommandSpec {
  name: string;
  summary: string;
  /** Full `corvid <command> --help` text. */
  help: string;
  options: OptionSpecs;
  /** Most positionals accepted (`Infinity` for the question words of `run`). */
  maxPositionals: number;
}

/** `--cassette <file> [--record | --replay]` of `corvid run` and `corvid chat`. */
const CASSETTE_OPTIONS: OptionSpecs = {
  cassette: { type: 'string' },
  record: { type: 'boolean' },
  replay: { type: 'boolean' },
};

const CASSETTE_HELP = `      --cassette <file>  Record the model calls to this cassette and replay them (docs/cassettes.md);
                         mode auto unless CORVID_CASSETTE_MODE or one of:
      --record           record the cassette anew (calls go to the model)
      --replay           replay only: a call the cassette has not recorded fails, never
                         reaching the model`;

/** Flags every command accepts. */
export const GLOBAL_OPTIONS: OptionSpecs = {
  config: { type: 'string', short: 'c' },
  debug: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
};

const GLOBAL_HELP = `Global options:
  -c, --config <file>   Config file (default: ./corvid.yaml or ./corvid.yml when present)
      --debug           Print stack traces with errors
      --no-color        Plain output (also: NO_COLOR=1, or output that is not a terminal)
  -h, --help            Show help
  -v, --version         Print the version`;

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'run',
    summary: 'Ask an agent one question and print the answer',
    options: {
      question: { type: 'string', short: 'q' },
      agent: { type: 'string', short: 'a' },
      json: { type: 'boolean' },
      'max-steps': { type: 'string' },
      verbose: { type: 'boolean' },
      session: { type: 'string', short: 's' },
      ...CASSETTE_OPTIONS,
    },
    maxPositionals: Infinity,
    help: `Usage: corvid run -q <question> [options]
       corvid run <question words...> [options]

Runs the agent once and prints only the answer on stdout.

Options:
  -q, --question <text>  The question; "-" reads it from stdin
  -a, --agent <name>     Agent to run (default: the config's default agent)
      --json             Print every event as one JSON line (NDJSON) on stdout
      --max-steps <n>    Model calls allowed in this run (overrides the agent's max_steps)
      --verbose          Print the steps (thinking, tool calls, results) on stderr
  -s, --session <id>     Run in a stored session (history loaded, messages saved; created when
                         missing). The run is checkpointed: corvid runs resume continues it
${CASSETTE_HELP}

${GLOBAL_HELP}

Exit codes: 0 answered, 1 failed (message on stderr), 2 bad usage, 3 paused for approval
(corvid approvals), 130 interrupted.

Examples:
  corvid run -q "What is the capital of Peru?"
  echo "Summarise this" | corvid run -q - --agent writer
  corvid run -q "2+2?" --json | jq -c 'select(.type == "tool_call")'`,
  },
  {
    name: 'chat',
    summary: 'Chat with an agent in an interactive session',
    options: {
      agent: { type: 'string', short: 'a' },
      verbose: { type: 'boolean' },
      session: { type: 'string', short: 's' },
      ...CASSETTE_OPTIONS,
    },
    maxPositionals: 1,
    help: `Usage: corvid chat [agent] [options]

Starts an interactive conversation. Up/Down recall earlier inputs (kept in ~/.corvid/history).
Ctrl-C cancels a running reply; Ctrl-C twice at an empty prompt, Ctrl-D or /exit quits.
With piped stdin, every line is one turn and only the answers are printed.

Commands inside the chat:
  /help            List these commands
  /reset           Start a new conversation
  /usage           Token usage of this conversation and of the session
  /reload          Reload the config file and keep the conversation
  /agent [name]    List the agents, or switch to another one (new conversation)
  /exit            Quit

Options:
  -a, --agent <name>  Agent to chat with (same as the positional argument)
  -s, --session <id>  Continue (or start) a stored session: the conversation survives restarts
                      (store: the config's storage:, default ./.corvid/corvid.db). Tools that
                      need approval are asked inline: y / n [reason] / always
      --verbose       With piped stdin: print the steps on stderr
${CASSETTE_HELP}

${GLOBAL_HELP}

Exit codes: 0 normal exit, 1 a failure (with piped stdin: any turn failed), 2 bad usage.

Examples:
  corvid chat
  corvid chat researcher -c agents.yaml
  corvid chat --session support-42
  printf 'Hi, I am Ann\\nWho am I?\\n' | corvid chat`,
  },
  {
    name: 'validate',
    summary: 'Check a config file and report every problem',
    options: {
      'print-config': { type: 'boolean' },
      'allow-unknown-tools': { type: 'boolean' },
      strict: { type: 'boolean' },
    },
    maxPositionals: 1,
    help: `Usage: corvid validate [file] [options]

Checks a config file (default: the -c file, else ./corvid.yaml or ./corvid.yml) and lists every
problem as file:line:col  path: message. It checks what corvid run / chat / serve check: every
tool an agent names must be built in or come from the config's tool modules (tools:), which are
imported. An unset \${VAR} (without default) is a warning, so the structure can be checked
without the secrets; --strict makes it an error, as corvid run does.

Options:
  --strict                Every \${VAR} without default must be set (an error, not a warning)
  --print-config          Also print the resolved config as YAML (secrets masked)
  --allow-unknown-tools   Tools not defined in the config are registered by a program
                          (loadRuntime({ tools })): report them as warnings, not errors

${GLOBAL_HELP}

Exit codes: 0 valid, 1 invalid or unreadable, 2 bad usage.

Examples:
  corvid validate
  corvid validate --strict
  corvid validate config/prod.yaml --print-config`,
  },
  {
    name: 'schema',
    summary: 'Print the JSON Schema of the config file',
    options: {},
    maxPositionals: 0,
    help: `Usage: corvid schema

Prints the JSON Schema of corvid.yaml on stdout, e.g. for editor completion:
  corvid schema > corvid.schema.json
and in corvid.yaml:  # yaml-language-server: $schema=./corvid.schema.json

${GLOBAL_HELP}

Exit codes: 0 printed, 2 bad usage.`,
  },
  {
    name: 'mcp',
    summary: 'MCP: serve agents and tools, list servers, log in and out',
    options: {
      agent: { type: 'string', short: 'a', multiple: true },
      http: { type: 'boolean' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      token: { type: 'string' },
      json: { type: 'boolean' },
    },
    maxPositionals: 2,
    help: `Usage: corvid mcp serve [--agent <name>]... [--http [--port <n>] [--host <addr>] [--token <t>]]
       corvid mcp list [--json]
       corvid mcp login <server>
       corvid mcp logout <server>

serve   Serves the config's tool-module tools and agents as an MCP server: on stdin/stdout, or
        with --http over Streamable HTTP at /mcp plus a REST gateway (GET /tools,
        POST /execute, GET /health). Each agent is a tool named after it taking { message }.
list    Every server of mcp_servers: status, transport and tools (connects to each).
login   Signs in to an OAuth-protected server (opens the browser; the URL is printed too).
logout  Forgets the stored tokens of a server.

Options:
  -a, --agent <name>   serve: only this agent (repeatable; default every agent)
      --http           serve: over HTTP instead of stdio
  -p, --port <n>       serve --http: port (default 3000; 0 = any free port)
      --host <addr>    serve --http: interface (default 127.0.0.1)
      --token <t>      serve --http: require "Authorization: Bearer <t>" (default $CORVID_MCP_TOKEN)
      --json           list: print JSON

${GLOBAL_HELP}

Exit codes: 0 success, 1 failure, 2 bad usage.

Examples:
  corvid mcp serve -c team.yaml --agent researcher
  corvid mcp serve --http --port 8080
  corvid mcp list
  corvid mcp login github`,
  },
  ...storeCommandSpecs(GLOBAL_HELP),
  {
    name: 'call',
    summary: 'Send a message to an A2A agent (a URL or a remote agent of the config)',
    options: {
      stream: { type: 'boolean', short: 's' },
      json: { type: 'boolean' },
      header: { type: 'string', short: 'H', multiple: true },
      context: { type: 'string' },
      timeout: { type: 'string' },
    },
    maxPositionals: Infinity,
    help: `Usage: corvid call <url-or-agent> <message words...> [options]

Sends one message to an agent over A2A (protocol v1.0, or v0.3 for older servers; JSON-RPC or
HTTP+JSON, as the agent card offers) and prints the answer on stdout. The target is an agent-card
URL, a server's base URL (card at /.well-known/agent-card.json), a JSON-RPC endpoint, or the name
of a "type: remote" agent of the config (its url, headers and timeout are used).

Options:
  -s, --stream           Print the answer as it arrives; task status changes go to stderr
      --json             Print the protocol's JSON (the result, or with --stream each event) per line
  -H, --header <k=v>     HTTP header for every request (repeatable), e.g. -H "Authorization=Bearer $T"
      --context <id>     Continue a conversation (A2A context id)
      --timeout <dur>    Give up after this long, e.g. 30s or 2m (default: the agent's, else 5m)

The message "-" reads it from stdin. Ctrl-C cancels the task.

${GLOBAL_HELP}

Exit codes: 0 answered, 1 failed (unreachable, or the task failed, was rejected or canceled),
2 bad usage, 130 interrupted.

Examples:
  corvid call http://127.0.0.1:8080 "What is the capital of Peru?"
  corvid call http://127.0.0.1:8080/agents/researcher/.well-known/agent-card.json "Find papers on corvid tool use" --stream
  corvid call researcher "Summarise this" --context 7f1c... -H "X-Team=birds"`,
  },
  {
    name: 'serve',
    summary: 'Serve the agents over HTTP: chat API (JSON, SSE, WebSocket), A2A, metrics',
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      watch: { type: 'boolean', short: 'w' },
      'no-worker': { type: 'boolean' },
      concurrency: { type: 'string' },
    },
    maxPositionals: 0,
    help: `Usage: corvid serve [--port <n>] [--host <addr>] [--watch] [--no-worker | --concurrency <n>]

Serves every agent of the config until Ctrl-C / SIGTERM (then finishes in-flight requests):
  POST /api/v1/agents/<name>/chat   { "message": "...", "sessionId"?, "stream"? }  JSON or SSE
  GET  /api/v1/agents/<name>/ws     WebSocket chat (approvals, cancel)
  GET  /api/v1/agents, /api/v1/sessions[/<id>], /api/v1/openapi.json
  GET  /health, /ready, /metrics; A2A at /.well-known/agent-card.json, /agents, /a2a/<name>
  GET  /studio/                     the Studio, a web UI (server.studio: false turns it off)
  POST /api/v1/runs                 { "agent", "input", "sessionId"?, "webhook"?, "delaySeconds"? | "runAt"? }  a background run (202)
  GET  /api/v1/runs/<id>[?wait=s], /api/v1/runs/<id>/stream[?after=seq], POST .../cancel
With a storage: section the server also executes queued background runs (see docs/scale-out.md).
Settings (auth, CORS, rate limits, TLS, telemetry, logging) come from the config's server:
section; JSON logs go to stdout, the start-up banner to stderr. See docs/server.md.

Options:
  -p, --port <n>       Port (default: server.port, else 8080; 0 = any free port, printed)
      --host <addr>    Interface (default: server.host, else 127.0.0.1). Without server.auth a
                       non-loopback address is only used when given here (with a warning)
  -w, --watch          Reload the config (and .env) when they change; a broken config is
                       rejected and the previous one keeps serving
      --no-worker      Only accept background runs; corvid worker processes execute them
      --concurrency <n>  Background runs executed here at once (default: queue.concurrency, else 4)

${GLOBAL_HELP}

Exit codes: 0 stopped by a signal, 1 failed to start, 2 bad usage.

Examples:
  corvid serve
  corvid serve -c team.yaml --port 9000 --watch
  curl -s localhost:8080/api/v1/agents/assistant/chat -H 'content-type: application/json' -d '{"message":"hi"}'`,
  },
  {
    name: 'worker',
    summary: 'Execute queued background runs (POST /api/v1/runs, runtime.runs.submit) until Ctrl-C',
    options: {
      concurrency: { type: 'string' },
    },
    maxPositionals: 0,
    help: `Usage: corvid worker [--concurrency <n>]

Takes background runs off the queue of the config's queue: section (embedded in the storage
database by default) and executes them, until Ctrl-C / SIGTERM (then lets running ones finish).
Any number of workers and servers may share one database: each run executes once; a run whose
worker died is continued by another from its last checkpoint. See docs/scale-out.md.

Options:
      --concurrency <n>  Runs executed at once (default: queue.concurrency, else 4)

${GLOBAL_HELP}

Exit codes: 0 stopped by a signal, 1 failed to start, 2 bad usage.

Examples:
  corvid worker --concurrency 8
  corvid serve --no-worker & corvid worker & corvid worker`,
  },
  {
    name: 'studio',
    summary: 'Serve the agents with the Studio, the web UI, and print its URL (--open: open it)',
    options: {
      open: { type: 'boolean' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      watch: { type: 'boolean', short: 'w' },
    },
    maxPositionals: 0,
    help: `Usage: corvid studio [--open] [--port <n>] [--host <addr>] [--watch]

Runs corvid serve and prints the Studio's URL (http://127.0.0.1:8080/studio/ by default) on
stdout: the web UI for agents, chat, sessions, runs, approvals, memories, knowledge and MCP
servers. It uses the server's API and its auth (with server.auth it asks for an API key or a
JWT). See docs/studio.md.

Options:
      --open           Open the Studio in the browser (open, xdg-open or start); not in CI
                       (CI or CORVID_NO_BROWSER set) nor on Linux without a display
  -p, --port <n>       Port (default: server.port, else 8080; 0 = any free port)
      --host <addr>    Interface (default: server.host, else 127.0.0.1)
  -w, --watch          Reload the config when it changes

${GLOBAL_HELP}

Exit codes: 0 stopped by a signal, 1 failed to start, 2 bad usage.

Examples:
  corvid studio --open
  corvid studio -c team.yaml --port 9000`,
  },
  {
    name: 'hash-key',
    summary: 'Make an API key for server.auth.api_keys (prints the key and its hash)',
    options: {},
    maxPositionals: 1,
    help: `Usage: corvid hash-key [key | -]

Without an argument, makes a new random API key and prints it with its hash; with a key (or "-"
to read it from stdin), prints only its hash. Put the hash in the config:
  server:
    auth:
      api_keys:
        - { name: my-app, hash: "sha256:..." }
Clients send the key as "Authorization: Bearer <key>" or "x-api-key: <key>".

${GLOBAL_HELP}

Exit codes: 0 printed, 2 bad usage.`,
  },
  ...knowledgeCommandSpecs(GLOBAL_HELP),
  codeCommandSpec(GLOBAL_HELP),
  evalCommandSpec(GLOBAL_HELP),
];

/** `corvid --help`. */
export const MAIN_HELP = `Usage: corvid <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`).join('\n')}
  help [cmd]  Show help for a command

${GLOBAL_HELP}

Run "corvid <command> --help" for a command's options.
Exit codes: 0 success, 1 failure, 2 bad usage, 130 interrupted.`;

/** The spec of a command, if it exists. */
export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}
