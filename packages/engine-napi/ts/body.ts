/**
 * Reads a request body under ES's `http.max_content_length`, never buffering more than the
 * limit. Past the limit the body is refused: the rest is read and thrown away, and the 413
 * is answered once the request has ended, so the connection stays in step and usable (Node
 * parses bytes left unread after an early answer as the next request). A body too long to
 * be worth draining is cut off instead: the caller answers and closes the connection.
 */
import type http from 'node:http';
import { EngineError } from './errors.js';

/** A refused body; `closeConnection` when the rest of it will not be read. */
export class BodyTooLarge extends EngineError {
  closeConnection = false;
}

export function bodyTooLarge(size: number, limit: number, declared: boolean): BodyTooLarge {
  const what = declared ? `declared content length [${size}]` : `request body of more than [${limit}] bytes`;
  const reason = `${what} exceeds http.max_content_length [${limit}]; send smaller requests (for _bulk, fewer documents per request)`;
  const { status, body } = EngineError.of(413, 'content_too_long_exception', reason);
  return new BodyTooLarge(status, body);
}

/** The declared Content-Length when it exceeds the limit, else undefined. */
export function declaredTooLarge(req: http.IncomingMessage, limit: number): number | undefined {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limit ? declared : undefined;
}

/** How many body bytes a refused request may send in all before it is cut off. */
export function drainLimit(limit: number): number {
  return 2 * limit;
}

export function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let received = 0;
    let refusal: BodyTooLarge | undefined;
    const cutOff = (error: BodyTooLarge) => {
      error.closeConnection = true;
      req.removeAllListeners('data');
      reject(error);
    };
    const declared = declaredTooLarge(req, limit);
    if (declared !== undefined) {
      refusal = bodyTooLarge(declared, limit, true);
      // Expect: 100-continue means the body is not coming until we ask; a huge one is not worth reading.
      if (req.headers.expect !== undefined || declared > drainLimit(limit)) {
        cutOff(refusal);
        return;
      }
    }
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (refusal) {
        if (received > drainLimit(limit)) cutOff(refusal);
        return;
      }
      if (received > limit) {
        refusal = bodyTooLarge(received, limit, false);
        chunks = [];
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refusal) reject(refusal);
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}
