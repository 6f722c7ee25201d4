import { MemoryKnowledgeStore } from '../../src/knowledge/stores/memory/memory-knowledge-store.js';
import { knowledgeStoreCases } from './support/store-cases.js';

knowledgeStoreCases('memory', async () => new MemoryKnowledgeStore());
