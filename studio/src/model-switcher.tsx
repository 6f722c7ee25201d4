/**
 * The model and sampling settings of the next turns: a configured model (or the agent's own), temperature and
 * max tokens. What it yields is the `overrides` of a chat request (`POST /api/v1/agents/{name}/chat`).
 */
import { api } from './api-client.js';
import type { ConfiguredModel } from './api-types.js';
import { useLoad } from './ui.js';

/** The `overrides` of a chat request (unset: the agent's own). */
export interface TurnOverrides {
  model?: string;
  temperature?: number;
  maxTokens?: number;
  instructions?: string;
}

/** The form's values as text (empty: the agent's own). */
export interface ModelChoice {
  model: string;
  temperature: string;
  maxTokens: string;
}

export const NO_CHOICE: ModelChoice = { model: '', temperature: '', maxTokens: '' };

/** The overrides of a choice; `undefined` fields are left to the agent. */
export function overridesOf(choice: ModelChoice): TurnOverrides {
  const out: TurnOverrides = {};
  if (choice.model) out.model = choice.model;
  const t = Number.parseFloat(choice.temperature);
  if (choice.temperature.trim() !== '' && Number.isFinite(t)) out.temperature = t;
  const m = Number.parseInt(choice.maxTokens, 10);
  if (choice.maxTokens.trim() !== '' && Number.isFinite(m)) out.maxTokens = m;
  return out;
}

export function ModelSwitcher({
  value,
  onChange,
  agentModel,
  idPrefix = 'switch',
}: {
  value: ModelChoice;
  onChange: (next: ModelChoice) => void;
  /** The agent's own model, for the default option's label. */
  agentModel?: string;
  idPrefix?: string;
}) {
  const models = useLoad(() => api<{ models: ConfiguredModel[] }>('/models').catch(() => ({ models: [] })), []);
  const set = (patch: Partial<ModelChoice>) => onChange({ ...value, ...patch });
  return (
    <fieldset class="model-switcher">
      <legend>Model and settings</legend>
      <div class="field">
        <label for={`${idPrefix}-model`}>Model</label>
        <select id={`${idPrefix}-model`} value={value.model} onChange={(e) => set({ model: e.currentTarget.value })}>
          <option value="">the agent’s own{agentModel ? ` (${agentModel})` : ''}</option>
          {(models.data?.models ?? []).map((m) => (
            <option key={m.name} value={m.name}>
              {m.name} — {m.provider}:{m.model}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${idPrefix}-temperature`}>Temperature</label>
        <input
          id={`${idPrefix}-temperature`}
          type="number"
          min={0}
          max={2}
          step={0.1}
          placeholder="agent’s"
          value={value.temperature}
          onInput={(e) => set({ temperature: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for={`${idPrefix}-max-tokens`}>Max tokens</label>
        <input
          id={`${idPrefix}-max-tokens`}
          type="number"
          min={1}
          step={1}
          placeholder="agent’s"
          value={value.maxTokens}
          onInput={(e) => set({ maxTokens: e.currentTarget.value })}
        />
      </div>
    </fieldset>
  );
}
