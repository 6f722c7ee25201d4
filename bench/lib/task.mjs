// The benchmark task, identical for every framework: the model asks for add(1,2), add(3,4),
// add(5,6) one after another, then answers with text. Four model steps per run.
//
// Every scripted model in bench/frameworks/*.mjs answers call n of a run with TURNS[n % 4]; the
// answer is streamed as the same seven deltas everywhere. The model is in-process and answers at
// once: what is measured is the framework's own overhead around a model call.

export const INSTRUCTIONS = 'You add numbers with the add tool.';
export const PROMPT = 'Add 1 and 2, then 3 and 4, then 5 and 6.';
export const STEPS = 4;
export const TOOL_NAME = 'add';
export const TOOL_DESCRIPTION = 'Add two numbers';
/** Arguments of the three tool calls, as the model sends them (JSON text). */
export const CALL_ARGS = ['{"a":1,"b":2}', '{"a":3,"b":4}', '{"a":5,"b":6}'];
export const CALL_IDS = ['call_0', 'call_1', 'call_2'];
/** What the tool returns for them; the last model call must see all three. */
export const RESULTS = [3, 7, 11];
export const ANSWER_DELTAS = ['The ', 'sums ', 'are ', '3, ', '7 ', 'and ', '11.'];
export const ANSWER = ANSWER_DELTAS.join('');
export const USAGE = { input: 10, output: 5 };

/**
 * Shared counters: the models count calls, the tools count executions. `verify` turns on the
 * (slower) inspection of what the model was sent, used once before timing.
 */
export function createState() {
  return {
    modelCalls: 0,
    toolRuns: 0,
    verify: false,
    /** Set by the model on the first call of a verified run: the tool names and JSON Schemas it was sent. */
    seenTools: undefined,
    /** Set by the model on the last call of a verified run: the tool results found in its prompt. */
    seenResults: undefined,
  };
}

/** The turn the model answers with, and advances the call counter. */
export function nextTurn(state) {
  return state.modelCalls++ % STEPS;
}

/** The `add` tool's body, shared by all frameworks (counts its executions). */
export function addImpl(state) {
  return ({ a, b }) => {
    state.toolRuns++;
    return a + b;
  };
}
