/** Library surface: the engine wrapper and the HTTP service, for embedding and tests. */
export { Engine } from './engine.js';
export { EngineError } from './errors.js';
export { createService } from './http.js';
