/** Agents: the list the caller may see, and one agent with its model, tools and multi-agent structure. */
import { api, seg } from '../api-client.js';
import type { AgentDetail, AgentInfo } from '../api-types.js';
import { StructureDiagram } from '../structure-diagram.js';
import { Badge, LoadView, PageHeader, useLoad } from '../ui.js';
import { href } from '../use-route.js';

export function AgentsPage({ name }: { name?: string }) {
  return name ? <AgentDetailView name={name} /> : <AgentList />;
}

function AgentList() {
  const loaded = useLoad(() => api<{ agents: AgentInfo[] }>('/agents'), []);
  return (
    <section>
      <PageHeader title="Agents" />
      <LoadView loaded={loaded}>
        {({ agents }) =>
          agents.length === 0 ? (
            <p class="muted">No agent is visible to you on this server.</p>
          ) : (
            <ul class="cards">
              {agents.map((agent) => (
                <li key={agent.name} class="card">
                  <h2>
                    <a href={href('agents', [agent.name])}>{agent.name}</a>
                  </h2>
                  <p>
                    <Badge text={agent.kind} tone="kind" /> {agent.default ? <Badge text="default" tone="info" /> : null}{' '}
                    {agent.visibility !== 'public' ? <Badge text={agent.visibility} tone="info" /> : null}
                  </p>
                  {agent.description ? <p>{agent.description}</p> : null}
                  <a class="button" href={href('chat', [agent.name])}>
                    Chat with {agent.name}
                  </a>
                </li>
              ))}
            </ul>
          )
        }
      </LoadView>
    </section>
  );
}

function AgentDetailView({ name }: { name: string }) {
  const loaded = useLoad(() => api<AgentDetail>(`/agents/${seg(name)}`), [name]);
  return (
    <section>
      <PageHeader title={name}>
        <a class="button" href={href('agents')}>
          All agents
        </a>
        <a class="button primary" href={href('chat', [name])}>
          Chat
        </a>
      </PageHeader>
      <LoadView loaded={loaded}>
        {(agent) => (
          <>
            <dl class="facts">
              <dt>Kind</dt>
              <dd>{agent.kind}</dd>
              <dt>Model</dt>
              <dd>{agent.model ?? <span class="muted">not reported by this server</span>}</dd>
              <dt>Visibility</dt>
              <dd>{agent.visibility}</dd>
              {agent.description ? (
                <>
                  <dt>Description</dt>
                  <dd>{agent.description}</dd>
                </>
              ) : null}
            </dl>
            <h2>Tools</h2>
            {agent.tools === undefined ? (
              <p class="muted">This server does not list the tools of its agents.</p>
            ) : agent.tools.length === 0 ? (
              <p class="muted">No tools.</p>
            ) : (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Tool</th>
                      <th scope="col">Source</th>
                      <th scope="col">Description</th>
                    </tr>
                  </thead>
                  <tbody>
                    {agent.tools.map((tool) => (
                      <tr key={tool.name}>
                        <td>
                          <code>{tool.name}</code> {tool.needsApproval ? <Badge text="needs approval" tone="paused" /> : null}
                        </td>
                        <td>{tool.source}</td>
                        <td>{tool.description}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {agent.structure ? (
              <>
                <h2>Structure</h2>
                <div class="diagram-wrap">
                  <StructureDiagram root={agent.name} structure={agent.structure} />
                </div>
              </>
            ) : null}
          </>
        )}
      </LoadView>
    </section>
  );
}
