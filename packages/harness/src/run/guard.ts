import { EngineFailure } from '../load/errors.js';
import type { Side } from '../load/side.js';
import type { RowMeta } from '../model/rowMeta.js';
import type { Role, RowResult } from '../scorecard/schema.js';
import { collapseSides, crashedRowResult } from '../verdict/crashedRowResult.js';

/** An engine that died or hung during the run, and what the harness did about it. */
export interface Crash {
  role: Role;
  /** The row (or phase, e.g. "prewarm") it happened in. */
  during: string;
  cause: string;
  /** "restarted on the same data (...)", or why it could not come back. */
  outcome: string;
}

const ROLES: readonly Role[] = ['candidate', 'baseline'];

/**
 * Keeps a run going when an engine dies or hangs in the middle of it: the row it happened in
 * is recorded with that side collapsed, the engine is restarted on its data where the harness
 * started it, and the run moves on. A side that cannot come back collapses every later row.
 * Ctrl-C and harness errors pass through untouched.
 */
export class RowGuard {
  readonly crashes: Crash[] = [];

  constructor(
    private readonly sides: Record<Role, Side>,
    private readonly index: string,
    private readonly expectedDocs: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Measure one row; on a crash or hang, the row with the failed side(s) collapsed. */
  async row(meta: RowMeta, measure: () => Promise<RowResult>): Promise<RowResult> {
    const gone = this.goneNotes();
    if (Object.keys(gone).length > 0) return crashedRowResult(meta, gone);
    let row: RowResult;
    try {
      row = await measure();
    } catch (error) {
      if (!(error instanceof EngineFailure)) throw error;
      const notes = await this.failed(meta.id, error);
      return crashedRowResult(meta, notes);
    }
    // A hung engine fails its requests by timeout, not by dying: ask each side if it still answers.
    const hung: Partial<Record<Role, string>> = {};
    for (const role of ROLES) {
      if (await this.sides[role].alive()) continue;
      const cause = `${role}: stopped answering (GET / unanswered within 5 s) by the end of ${meta.id}`;
      hung[role] = `${cause}; ${await this.bringBack(role, meta.id, cause)}`;
    }
    return Object.keys(hung).length > 0 ? collapseSides(row, hung) : row;
  }

  /**
   * One stretch of a row's measurement (a row's rounds in one fork): on a crash or hang, the
   * notes for the failed side(s), with the engine brought back where it can be; undefined when
   * nothing failed. The caller collapses the row with them once it is judged.
   */
  async attempt(
    label: string,
    measure: () => Promise<void>,
  ): Promise<Partial<Record<Role, string>> | undefined> {
    const gone = this.goneNotes();
    if (Object.keys(gone).length > 0) return gone;
    try {
      await measure();
    } catch (error) {
      if (!(error instanceof EngineFailure)) throw error;
      return this.failed(label, error);
    }
    const hung: Partial<Record<Role, string>> = {};
    for (const role of ROLES) {
      if (await this.sides[role].alive()) continue;
      const cause = `${role}: stopped answering (GET / unanswered within 5 s) by the end of ${label}`;
      hung[role] = `${cause}; ${await this.bringBack(role, label, cause)}`;
    }
    return Object.keys(hung).length > 0 ? hung : undefined;
  }

  /** A phase that produces no row (prewarm): a crash is recovered from and recorded, nothing else. */
  async phase(name: string, run: () => Promise<void>): Promise<void> {
    if (Object.keys(this.goneNotes()).length > 0) return;
    try {
      await run();
    } catch (error) {
      if (!(error instanceof EngineFailure)) throw error;
      await this.failed(name, error);
    }
  }

  /** One line for the scorecard's failure note, or undefined when nothing crashed. */
  summary(): string | undefined {
    if (this.crashes.length === 0) return undefined;
    return this.crashes.map((c) => `${c.cause} (during ${c.during}); ${c.outcome}`).join('; ');
  }

  private goneNotes(): Partial<Record<Role, string>> {
    const notes: Partial<Record<Role, string>> = {};
    for (const role of ROLES) {
      const gone = this.sides[role].gone;
      if (gone !== undefined)
        notes[role] = `not measured, the engine is gone since an earlier crash (${gone})`;
    }
    return notes;
  }

  /** The failing side, plus the other one if it is down too; each is brought back if it can be. */
  private async failed(during: string, error: EngineFailure): Promise<Partial<Record<Role, string>>> {
    const notes: Partial<Record<Role, string>> = {};
    for (const role of ROLES) {
      const side = this.sides[role];
      if (role !== error.role && (await side.alive())) continue;
      const cause = role === error.role ? error.message : `${role}: does not answer either`;
      notes[role] = `${cause}; ${await this.bringBack(role, during, cause)}`;
    }
    return notes;
  }

  private async bringBack(role: Role, during: string, cause: string): Promise<string> {
    this.log(`${cause} during ${during}: recovering`);
    const outcome = await this.sides[role].recover(this.index, this.expectedDocs);
    this.log(`${role}: ${outcome}`);
    this.crashes.push({ role, during, cause, outcome });
    return outcome;
  }
}
