/**
 * Who makes a model call: set by the agent loop on the options of each call it makes
 * (`options[MODEL_CALL_INFO]`), read by model wrappers that need it (a cassette keeps the calls
 * of each agent path on their own lane). A symbol key: provider packages never see it as a setting.
 */
export const MODEL_CALL_INFO: unique symbol = Symbol.for('corvid.modelCallInfo');

/** What `MODEL_CALL_INFO` holds. */
export interface ModelCallInfo {
  /** The agent whose loop calls the model. */
  agent: string;
  /** Its path in the run tree (`['team', 'researcher']`). */
  path: readonly string[];
  runId: string;
  /** The loop's step (from 1). */
  step: number;
}

/** The call's `ModelCallInfo`, when an agent loop made it. */
export function modelCallInfo(options: object): ModelCallInfo | undefined {
  return (options as { [MODEL_CALL_INFO]?: ModelCallInfo })[MODEL_CALL_INFO];
}

/** Sets a call's `ModelCallInfo`. */
export function setModelCallInfo(options: object, info: ModelCallInfo): void {
  (options as { [MODEL_CALL_INFO]?: ModelCallInfo })[MODEL_CALL_INFO] = info;
}
