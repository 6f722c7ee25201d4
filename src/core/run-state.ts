/** The run state is a contract (`src/types/run-state.ts`): tools see it in their context. Re-exported for the layers above. */
export { KeyValueState, RunState, type RunStateInit, toRunState } from '../types/run-state.js';
