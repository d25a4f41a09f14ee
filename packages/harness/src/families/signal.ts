/** The base response readers, at the path src/measure/knn.ts imports them from. */
export * from './signals/core.js';
