/**
 * ES's indexing pressure: the bytes of write requests (bulks and single-document writes) in
 * flight on this node, their totals since start, and the limit past which a write is
 * refused with a 429 `es_rejected_execution_exception` instead of being buffered (ES's
 * `indexing_pressure.memory.limit`, 10% of the heap; here 10% of the machine's memory, which
 * holds the engine's write buffers). One node is coordinator and primary at once, and holds no
 * replica: replica figures stay zero.
 */
import { totalmem } from 'node:os';
import { EngineError } from '../errors.js';

const LIMIT = Math.floor(totalmem() / 10);

const pressure = { current: 0, total: 0, rejections: 0 };

function admit(bytes: number): void {
  if (pressure.current + bytes > LIMIT) {
    pressure.rejections++;
    throw EngineError.of(
      429,
      'es_rejected_execution_exception',
      `rejected execution of coordinating operation [coordinating_and_primary_bytes=${pressure.current}, replica_bytes=0, all_bytes=${pressure.current}, coordinating_operation_bytes=${bytes}, max_coordinating_and_primary_bytes=${LIMIT}]`,
    );
  }
  pressure.current += bytes;
  pressure.total += bytes;
}

/** Counts `bytes` of a write in flight until `work` settles; refuses it past the limit. */
export async function underPressure<T>(bytes: number, work: () => Promise<T>): Promise<T> {
  admit(bytes);
  try {
    return await work();
  } finally {
    pressure.current -= bytes;
  }
}

/** As `underPressure`, for a write that runs on the calling thread. */
export function underPressureSync<T>(bytes: number, work: () => T): T {
  admit(bytes);
  try {
    return work();
  } finally {
    pressure.current -= bytes;
  }
}

export function indexingPressureStats() {
  const { current, total, rejections } = pressure;
  const side = (bytes: number) => ({
    combined_coordinating_and_primary_in_bytes: bytes,
    coordinating_in_bytes: bytes,
    primary_in_bytes: bytes,
    replica_in_bytes: 0,
    all_in_bytes: bytes,
  });
  return {
    memory: {
      current: side(current),
      total: {
        ...side(total),
        coordinating_rejections: rejections,
        primary_rejections: 0,
        replica_rejections: 0,
      },
      limit_in_bytes: LIMIT,
    },
  };
}
