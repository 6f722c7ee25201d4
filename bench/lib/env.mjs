// Imported first by every framework file (and set by bench/run.mjs for each child): tracing and
// telemetry that a peer would switch on from the environment stay off.
process.env.LANGSMITH_TRACING = 'false';
process.env.LANGCHAIN_TRACING_V2 = 'false';
process.env.LANGCHAIN_TRACING = 'false';
process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
delete process.env.LANGSMITH_API_KEY;
delete process.env.LANGCHAIN_API_KEY;
