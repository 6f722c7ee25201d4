import { installDurableRunner } from '../core/core-services.js';

// Importing this module installs the durable runner the core starts session / durable runs and
// resumes with (see `src/core/core-services.ts`). The machinery itself loads on first use.
installDurableRunner({
  start: (root, input, options, context) => import('./start-durable-run.js').then((m) => m.startDurableRun(root, input, options, context)),
  resume: (root, runId, options, context) => import('./resume-run.js').then((m) => m.resumeDurableRun(root, runId, options, context)),
});
