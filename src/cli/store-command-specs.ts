import type { CommandSpec } from './command-specs.js';

/** The specs of the commands over stored state: `corvid runs`, `approvals`, `sessions` and `memories`; `globalHelp` is the global options' help text. */
// eslint-disable-next-line max-lines-per-function -- a list of help texts: data, not logic
export function storeCommandSpecs(globalHelp: string): CommandSpec[] {
  return [
    {
      name: 'replay',
      summary: 'Turn a stored run into a cassette, and run the agent again against it',
      options: {
        out: { type: 'string', short: 'o' },
        run: { type: 'boolean' },
      },
      maxPositionals: 1,
      help: `Usage: corvid replay <run-id> [--out <file>] [--run]

  Turns a stored run (corvid runs list) into a cassette: the agent runs again on the run's input,
  its model answered by the run's stored answers and its tools by their stored results, while the
  cassette records the requests it makes (docs/cassettes.md). Runs of one LLM agent without
  handoffs; a session run is replayed on its own input, without the session's earlier messages.

  Options:
    -o, --out <file>   The cassette file (default: cassettes/<run-id>.cassette.json)
        --run          Then run the agent against the cassette alone (replay mode: no model is
                       called) and print its answer

  Use the cassette with corvid run --cassette <file> --replay, or withCassette() in tests.

  ${globalHelp}`,
    },
    {
      name: 'runs',
      summary: 'List stored runs, resume interrupted or paused ones, submit background runs, list schedules',
      options: {
        status: { type: 'string' },
        delay: { type: 'string' },
        at: { type: 'string' },
        session: { type: 'string', short: 's' },
        agent: { type: 'string', short: 'a' },
        limit: { type: 'string', short: 'n' },
        json: { type: 'boolean' },
        verbose: { type: 'boolean' },
      },
      maxPositionals: 3,
      help: `Usage: corvid runs list [--status <s>] [--session <id>] [--agent <name>] [--limit <n>] [--json]
         corvid runs resume <run-id> [--json] [--verbose]
         corvid runs submit <agent> <input> [--delay <duration> | --at <time>] [--session <id>] [--json]
         corvid runs schedules [--json]

  Runs with a session (corvid chat --session, corvid run --session, agent.run(x, { session }))
  are checkpointed in the config's store (storage:, default ./.corvid/corvid.db).

  list    Runs, most recently updated first: id, status, agent, session, checkpoints, last update.
  resume  Continues a run from its last checkpoint with the same run id (after a crash, or once
          its approvals are answered) and prints its answer. Tool calls that had finished are not
          run again.
  submit  Queues a background run and prints its id; a worker (corvid worker, corvid serve) runs
          it, no sooner than --delay from now or --at. See docs/scale-out.md.
  schedules  The schedules: of the config (cron) with their next tick.

  Options:
        --status <s>       list: running, paused, completed or failed (comma-separated for several)
    -s, --session <id>     list: only runs of this session
    -a, --agent <name>     list: only runs of this agent
    -n, --limit <n>        list: at most this many (default 50)
        --json             list: print JSON; resume: every event as NDJSON
        --verbose          resume: print the steps on stderr
        --delay <d>        submit: start no sooner than this from now: 30s, 10m, 2h, 1d
        --at <time>        submit: start no sooner than this ISO 8601 time, e.g. 2026-01-31T09:00:00Z

  ${globalHelp}

  Exit codes: 0 success, 1 failure (e.g. unknown run id), 2 bad usage, 3 paused again.

  Examples:
    corvid runs list --status running,paused
    corvid runs resume run_m3x1k9a2f3c4d5e6
    corvid runs submit helper "Summarise the report" --delay 10m`,
    },
    {
      name: 'approvals',
      summary: 'List, approve and deny tool calls waiting for a human',
      options: {
        reason: { type: 'string', short: 'r' },
        'no-resume': { type: 'boolean' },
        session: { type: 'string', short: 's' },
        run: { type: 'string' },
        json: { type: 'boolean' },
      },
      maxPositionals: 2,
      help: `Usage: corvid approvals list [--session <id>] [--run <id>] [--json]
         corvid approvals approve <approval-id> [--reason <text>] [--no-resume]
         corvid approvals deny <approval-id> --reason <text> [--no-resume]

  Tools marked require_approval (config) or requireApproval (code) pause their run until someone
  answers. Answering resumes the run here and prints its answer, unless --no-resume (then
  corvid runs resume <run-id> continues it later, from any process).

  Options:
    -r, --reason <text>   Why (a denial's reason is what the model sees)
        --no-resume       Only record the answer
    -s, --session <id>    list: only approvals of this session
        --run <id>        list: only approvals of this run
        --json            list: print JSON

  ${globalHelp}

  Exit codes: 0 success, 1 failure (unknown or already answered approval), 2 bad usage,
  3 the resumed run paused again.

  Examples:
    corvid approvals list
    corvid approvals approve apr_01JD3... --reason "checked the path"
    corvid approvals deny apr_01JD3... --reason "that file is the audit log"`,
    },
    {
      name: 'sessions',
      summary: 'List, search, show, delete and export stored conversations',
      options: {
        agent: { type: 'string', short: 'a' },
        mode: { type: 'string' },
        user: { type: 'string', short: 'u' },
        limit: { type: 'string', short: 'n' },
        cursor: { type: 'string' },
        json: { type: 'boolean' },
        yes: { type: 'boolean', short: 'y' },
        output: { type: 'string', short: 'o' },
      },
      maxPositionals: 2,
      help: `Usage: corvid sessions list [--agent <name>] [--user <id>] [--limit <n>] [--cursor <c>] [--json]
         corvid sessions search <query> [--mode <mode>] [--agent <name>] [--user <id>] [--limit <n>] [--json]
         corvid sessions show <id> [--json]
         corvid sessions delete <id> [--yes]
         corvid sessions export <id> [-o <file>]

  Works on the store of the config's storage: section (default SQLite at ./.corvid/corvid.db).

  list    Sessions, newest first: id, agent, active agent, user, messages, last update.
  search  Messages of past conversations, most relevant first: session, seq, role, agent, date,
          score and the matching text. By keywords; with storage.embedder also by meaning.
  show    The conversation: user and assistant messages with agent names, reasoning, tool calls
          and their results, handoffs.
  delete  Deletes a session with its entries, state, artifacts, runs and approvals (asks first
          on a terminal; --yes to skip).
  export  The session and every entry as JSON at full fidelity (file bytes base64-tagged).

  Options:
    -a, --agent <name>   list: only sessions of this agent; search: only its messages
    -u, --user <id>      list, search: only sessions of this user
    -n, --limit <n>      list: sessions per page, 1-1000 (default 20); search: at most this many (default 10)
        --cursor <c>     list: the next page (printed under a full page)
        --mode <mode>    search: keyword, vector or hybrid (vector and hybrid need storage.embedder;
                         default hybrid with it, keyword without)
        --json           list, search, show: print JSON
    -y, --yes            delete: do not ask
    -o, --output <file>  export: write to a file instead of stdout

  ${globalHelp}

  Exit codes: 0 success, 1 failure (e.g. unknown session id), 2 bad usage.

  Examples:
    corvid sessions list --agent support --user u_42
    corvid sessions search "what did we decide about refunds" --user u_42
    corvid sessions show ses_01JD3...
    corvid sessions export ses_01JD3... -o conversation.json
    corvid sessions delete ses_01JD3... --yes`,
    },
    {
      name: 'memories',
      summary: 'List, search, delete, export and import long-term memories',
      options: {
        agent: { type: 'string', short: 'a' },
        user: { type: 'string', short: 'u' },
        category: { type: 'string' },
        limit: { type: 'string', short: 'n' },
        json: { type: 'boolean' },
        replace: { type: 'boolean' },
      },
      maxPositionals: 2,
      help: `Usage: corvid memories list [--category <c>] [--limit <n>] [--json]
         corvid memories search <query> [--limit <n>] [--json]
         corvid memories delete <key>
         corvid memories export > memories.json
         corvid memories import <file|-> [--replace]

  The memories agents keep with save_memory, for one user of one agent, in the store of the
  config's storage: section (default SQLite at ./.corvid/corvid.db).

  Options:
    -a, --agent <name>   Whose memories (default: the config's default agent)
    -u, --user <id>      The user (default: "default", what runs without a user use)
        --category <c>   list: only this category
    -n, --limit <n>      list, search: at most this many
        --json           list, search: print JSON
        --replace        import: delete the scope's other memories first

  Export and import use one JSON object of key -> { value, category, tags, importance,
  createdAt, updatedAt }; an import is checked completely before anything is written.

  ${globalHelp}

  Exit codes: 0 success, 1 failure (e.g. unknown key, invalid file), 2 bad usage.

  Examples:
    corvid memories list --agent helper --user u_42
    corvid memories search "units" --agent helper
    corvid memories export --agent helper > helper.json
    corvid memories import helper.json --agent helper --user u_43`,
    },
  ];
}
