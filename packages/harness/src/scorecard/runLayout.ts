/** How a run laid out its measurements: the design of the timed requests and where the processes ran. */

/**
 * How the timed requests of a read row are laid out (Kalibera & Jones's levels): each engine runs
 * in `forks` process executions per run, each fork measures `roundsPerFork` paired rounds, each
 * round `requestsPerRound` timed requests. `basis` says where the counts came from.
 */
export interface MeasurementDesign {
  forks: number;
  roundsPerFork: number;
  requestsPerRound: number;
  basis: string;
  /**
   * The engines not being timed were frozen (SIGSTOP on their process trees) during every timed
   * phase, the floor and each ingest chunk; absent on older cards, whose idle engine ran on.
   */
  othersFrozen?: boolean;
}

/** Where the harness and the engines ran: CPU sets (as taskset lists), or why they were not pinned. */
export interface Placement {
  harnessCpus?: string;
  engineCpus?: string;
  note: string;
}
