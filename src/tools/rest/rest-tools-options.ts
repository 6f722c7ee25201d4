/** Options of `restTools()`. */
export interface RestToolsOptions {
  /**
   * Base URL of the tool server: its tools are read from `GET <url>/tools`
   * (`{ tools: [{ name, description, inputSchema }] }`) and called with `POST <url>/execute`
   * (`{ tool, arguments }` → `{ result }` or `{ error: { type, message } }`) — the REST gateway
   * of `corvid mcp serve --http` and `corvid serve`, or any server of that shape.
   */
  url: string;
  /** Bearer token, sent as `Authorization: Bearer <token>`. A secret: never in results or errors. */
  token?: string;
  /** Extra request headers (e.g. an API key header). */
  headers?: Readonly<Record<string, string>>;
  /** Only these tools of the server (by their name on the server). Default all. */
  tools?: readonly string[];
  /** Prefix for the tool names the model sees, e.g. `inventory_`. Default none. */
  prefix?: string;
  /** Time limit of the `GET /tools` request and of each call, in milliseconds. Default 60,000. */
  timeoutMs?: number;
}
