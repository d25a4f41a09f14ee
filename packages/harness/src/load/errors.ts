import type { EngineRole } from '../engines/types.js';

/** The run itself failed (exit 2): an engine died or cannot be reached. Never a row verdict. */
export class EngineFailure extends Error {
  constructor(
    readonly role: EngineRole,
    message: string,
  ) {
    super(`${role}: ${message}`);
    this.name = 'EngineFailure';
  }
}

/** Ctrl-C: stop sending, keep what was measured, write a partial scorecard. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'Interrupted';
  }
}
