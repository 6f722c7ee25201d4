/** MCP: the configured servers with their status and tools; call a tool by hand with a form from its input schema. */
import { useState } from 'preact/hooks';

import { api, seg } from '../api-client.js';
import type { McpCallResult, McpServer, McpTool } from '../api-types.js';
import { argumentsOf, type SchemaField, schemaFields } from '../schema-args.js';
import { Badge, ErrorBox, LoadView, PageHeader, useLoad, ValueView } from '../ui.js';

export function McpPage() {
  // `connect=true`: servers not connected yet (nothing has used them) are connected to list their tools.
  const loaded = useLoad(() => api<{ servers: McpServer[] }>('/mcp/servers?connect=true'), []);
  return (
    <section>
      <PageHeader title="MCP servers">
        <button type="button" onClick={loaded.reload}>
          Refresh
        </button>
      </PageHeader>
      <LoadView loaded={loaded} what="MCP servers">
        {({ servers }) =>
          servers.length === 0 ? (
            <p class="muted">No MCP server is configured.</p>
          ) : (
            <>
              {servers.map((server) => (
                <article key={server.name} class="card">
                  <h2>
                    {server.name}{' '}
                    <Badge
                      text={server.status}
                      tone={server.status === 'connected' ? 'completed' : server.status === 'error' ? 'failed' : 'info'}
                    />
                  </h2>
                  <p class="muted small">{server.transport}</p>
                  {server.error ? <p class="error">{server.error}</p> : null}
                  {server.tools.length === 0 && !server.error ? <p class="muted">No tools.</p> : null}
                  <ul class="plain">
                    {server.tools.map((tool) => (
                      <ToolCaller key={tool.name} server={server.name} tool={tool} />
                    ))}
                  </ul>
                </article>
              ))}
            </>
          )
        }
      </LoadView>
    </section>
  );
}

function ToolCaller({ server, tool }: { server: string; tool: McpTool }) {
  const fields = schemaFields(tool.inputSchema);
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<McpCallResult>();
  const [error, setError] = useState<Error>();
  const [invalid, setInvalid] = useState<string>();
  const set = (name: string, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const call = (event: Event) => {
    event.preventDefault();
    const args = argumentsOf(fields, values);
    if (!args.ok) return setInvalid(args.error);
    setInvalid(undefined);
    api<McpCallResult>(`/mcp/servers/${seg(server)}/tools/${seg(tool.name)}/call`, {
      body: { arguments: args.value },
    }).then((r) => (setResult(r), setError(undefined)), setError);
  };
  const base = `mcp-${server}-${tool.name}`;
  return (
    <li>
      <details>
        <summary>
          <code>{tool.name}</code> {tool.description ? <span class="muted">— {tool.description}</span> : null}
        </summary>
        <form class="tool-form" onSubmit={call}>
          {fields.map((field) => (
            <FieldInput
              key={field.name}
              id={`${base}-${field.name}`}
              field={field}
              value={values[field.name] ?? field.initial}
              onChange={(v) => set(field.name, v)}
            />
          ))}
          {invalid ? (
            <p class="error" role="alert">
              {invalid}
            </p>
          ) : null}
          <button type="submit" class="primary">
            Call {tool.name}
          </button>
        </form>
        {error ? <ErrorBox error={error} /> : null}
        {result ? (
          <div class={result.isError ? 'tool-result error-result' : 'tool-result'}>
            <strong>{result.isError ? 'Error' : 'Result'}</strong>
            {result.content.map((block, i) =>
              block.type === 'text' && typeof block.text === 'string' ? (
                <pre key={i} class="json tool-text">
                  {block.text}
                </pre>
              ) : block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string' ? (
                <img
                  key={i}
                  class="tool-image"
                  src={`data:${block.mimeType};base64,${block.data}`}
                  alt={`image (${block.mimeType}) returned by ${tool.name}`}
                />
              ) : (
                <ValueView key={i} value={block} />
              ),
            )}
            {result.structuredContent ? (
              <>
                <div class="muted small">Structured content</div>
                <ValueView value={result.structuredContent} />
              </>
            ) : null}
          </div>
        ) : null}
      </details>
    </li>
  );
}

function FieldInput({ id, field, value, onChange }: { id: string; field: SchemaField; value: string; onChange: (value: string) => void }) {
  return (
    <div class="field">
      <label for={id}>
        {field.name}
        {field.required ? ' *' : ''} <span class="muted small">{field.kind}</span>
      </label>
      {field.kind === 'boolean' ? (
        <input id={id} type="checkbox" checked={value === 'true'} onChange={(e) => onChange(String(e.currentTarget.checked))} />
      ) : field.kind === 'enum' ? (
        <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
          <option value="">—</option>
          {field.options!.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : field.kind === 'json' ? (
        <textarea id={id} rows={3} value={value} onInput={(e) => onChange(e.currentTarget.value)} />
      ) : (
        <input id={id} type={field.kind === 'string' ? 'text' : 'number'} value={value} onInput={(e) => onChange(e.currentTarget.value)} />
      )}
      {field.description ? <div class="muted small">{field.description}</div> : null}
    </div>
  );
}
