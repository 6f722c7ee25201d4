import { installModelResolver } from '../core/core-services.js';
import { resolveModel } from './resolve-model.js';

// Importing this module installs `resolveModel` as the core's model resolver (see `src/core/core-services.ts`).
installModelResolver(resolveModel);
