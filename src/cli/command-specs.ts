import type { ParseArgsConfig } from 'node:util';

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

${GLOBAL_HELP}

Exit codes: 0 answered, 1 failed (message on stderr), 2 bad usage, 130 interrupted.

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
      --verbose       With piped stdin: print the steps on stderr

${GLOBAL_HELP}

Exit codes: 0 normal exit, 1 a failure (with piped stdin: any turn failed), 2 bad usage.

Examples:
  corvid chat
  corvid chat researcher -c agents.yaml
  printf 'Hi, I am Ann\\nWho am I?\\n' | corvid chat`,
  },
  {
    name: 'validate',
    summary: 'Check a config file and report every problem',
    options: {
      'print-config': { type: 'boolean' },
    },
    maxPositionals: 1,
    help: `Usage: corvid validate [file] [options]

Checks a config file (default: the -c file, else ./corvid.yaml or ./corvid.yml) and lists every
problem as file:line:col  path: message.

Options:
  --print-config   Also print the resolved config as YAML (secrets masked)

${GLOBAL_HELP}

Exit codes: 0 valid, 1 invalid or unreadable, 2 bad usage.

Examples:
  corvid validate
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
